// The SEN transfer form's schema in zod/mini for the browser, built from the contract's field tables
// (lib/bank-api/rules.ts). It mirrors the route handler's schema in lib/dashboard-api/ (the same
// table, the same messages; tests/unit/send-money-forms.test.ts holds them together), which checks
// every request again. One module per form, so a page loads only its own.
import * as z from "zod/mini";
import { SEN_TRANSFER_FIELDS } from "../bank-api/rules.ts";
import { idempotencyKeyField, moneyTextField, textField } from "./contract-fields.ts";
import { FROM_DESCRIPTION_FIELDS, TO_DESCRIPTION_FIELDS } from "./send-money-fields.ts";

const t = SEN_TRANSFER_FIELDS;

export const SenTransferForm = z
  .object({
    idempotencyKey: idempotencyKeyField(),
    AccountNumberFrom: textField(t.AccountNumberFrom),
    AccountNumberTo: textField(t.AccountNumberTo),
    Amount: moneyTextField(t.Amount),
    SerialNumber1: textField(t.SerialNumber1),
    SerialNumber2: textField(t.SerialNumber2),
    ...Object.fromEntries(
      [...FROM_DESCRIPTION_FIELDS, ...TO_DESCRIPTION_FIELDS].map((f) => [f, textField(t[f])]),
    ),
  })
  .check(
    z.refine((v) => v.AccountNumberFrom.trim() !== v.AccountNumberTo.trim(), {
      path: ["AccountNumberTo"],
      message: "must differ from the account the money comes from",
    }),
  );
