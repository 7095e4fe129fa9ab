// GET /api/statements/bai2?account&from&to - a BAI2 prior-day file of the accounts' business days
import { statementRoute } from "@/lib/statements/route.ts";

export const GET = statementRoute("bai2");
