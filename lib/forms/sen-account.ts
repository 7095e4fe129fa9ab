// The new SEN account form's schema in zod/mini for the browser, built from the contract's field tables
// (lib/bank-api/rules.ts). It mirrors the route handler's schema in lib/dashboard-api/ (the same
// table, the same messages; tests/unit/send-money-forms.test.ts holds them together), which checks
// every request again. One module per form, so a page loads only its own.
import * as z from "zod/mini";
import { CREATE_SEN_FIELDS } from "../bank-api/rules.ts";
import { textField, wholeDollarsTextField } from "./contract-fields.ts";

const c = CREATE_SEN_FIELDS;
export const CreateSenAccountForm = z.object({
  ExpectedBalance: wholeDollarsTextField(c.ExpectedBalance),
  ExpectedIncomingAmtMonth: wholeDollarsTextField(c.ExpectedIncomingAmtMonth),
  ExpectedOutgoingAmtMonth: wholeDollarsTextField(c.ExpectedOutgoingAmtMonth),
  AltTitleLine1: textField(c.AltTitleLine1),
  AltTitleLine2: textField(c.AltTitleLine2),
  AltTitleLine3: textField(c.AltTitleLine3),
  AltTitleLine4: textField(c.AltTitleLine4),
});
