// PUT /api/beneficiaries/[id] {label, fields} - changes a saved beneficiary: the label, name and
// address at once, the account or bank details after a second person approves (409 while another
// change waits); DELETE - removes it. Both audited with what it was before.
import { withRoute } from "@/lib/api/route.ts";
import {
  BeneficiaryDeletedResponse,
  BeneficiaryResponse,
  CreateBeneficiaryRequest,
} from "@/lib/dashboard-api/wires.ts";
import { deleteBeneficiary, updateBeneficiary } from "@/lib/payments/beneficiaries.ts";

export const PUT = withRoute<
  undefined,
  typeof CreateBeneficiaryRequest,
  { id: string },
  typeof BeneficiaryResponse
>(
  async ({ db, body, params, actor }) => ({
    beneficiary: await updateBeneficiary(db, actor, params.id, body.label, body.fields),
  }),
  { permission: "wires.create", body: CreateBeneficiaryRequest, response: BeneficiaryResponse },
);

export const DELETE = withRoute<undefined, undefined, { id: string }, typeof BeneficiaryDeletedResponse>(
  async ({ db, params, actor }) => {
    await deleteBeneficiary(db, actor, params.id);
    return { deleted: params.id };
  },
  { permission: "wires.create", response: BeneficiaryDeletedResponse },
);
