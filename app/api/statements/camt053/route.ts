// GET /api/statements/camt053?account&from&to - ISO 20022 camt.053 end-of-day statements, one per account per day
import { statementRoute } from "@/lib/statements/route.ts";

export const GET = statementRoute("camt053");
