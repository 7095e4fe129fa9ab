// PUT /api/beneficiaries/[id] {label, fields} - changes a saved beneficiary: the label, name and
// address at once, the account or bank details after a second person approves (409 while another
// change waits); DELETE - removes it. Both audited with what it was before.

import {
  BeneficiaryDeletedResponse,
  BeneficiaryResponse,
  CreateBeneficiaryRequest,
} from "@/lib/dashboard-api/wires.ts";
import { deleteBeneficiary, updateBeneficiary } from "@/lib/payments/beneficiaries.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const PUT = withRoute(
  async ({ db, body, params, actor }) => ({
    beneficiary: await updateBeneficiary(db, actor, params.id, body.label, body.fields),
  }),
  {
    params: IdParams,
    permission: "wires.create",
    body: CreateBeneficiaryRequest,
    response: BeneficiaryResponse,
  },
);

export const DELETE = withRoute(
  async ({ db, params, actor }) => {
    await deleteBeneficiary(db, actor, params.id);
    return { deleted: params.id };
  },
  { params: IdParams, permission: "wires.create", response: BeneficiaryDeletedResponse },
);
