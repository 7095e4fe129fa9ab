// GET /api/statements/camt052?account - ISO 20022 camt.052 intraday report of today so far, held wires pending
import { statementRoute } from "@/lib/statements/route.ts";

export const GET = statementRoute("camt052");
