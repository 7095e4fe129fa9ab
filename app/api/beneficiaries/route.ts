// GET /api/beneficiaries - saved wire beneficiaries, each with its status and any change waiting
// for approval (BeneficiaryListResponse); POST {label, fields} - saves one, which waits for a second
// person before it fills a wire (audited).

import {
  BeneficiaryListResponse,
  BeneficiaryResponse,
  CreateBeneficiaryRequest,
} from "@/lib/dashboard-api/wires.ts";
import { createBeneficiary, listBeneficiaries } from "@/lib/payments/beneficiaries.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ db }) => ({ beneficiaries: await listBeneficiaries(db) }), {
  permission: "wires.create",
  response: BeneficiaryListResponse,
});

export const POST = withRoute(
  async ({ db, body, actor }) => ({
    beneficiary: await createBeneficiary(db, actor, body.label, body.fields),
  }),
  { permission: "wires.create", body: CreateBeneficiaryRequest, response: BeneficiaryResponse },
);
