// The dashboard's own JSON API (app/api/*): every request and response shape as a zod schema.
// Route handlers declare their response schema (checked outside production); the browser takes
// its types from the same schemas.
export * from "./accounts.ts";
export * from "./admin.ts";
export * from "./admin-changes.ts";
export * from "./alerts.ts";
export * from "./errors.ts";
export * from "./health.ts";
export * from "./inbox.ts";
export * from "./incoming-wires.ts";
export * from "./payments.ts";
export * from "./sen-accounts.ts";
export * from "./session.ts";
export * from "./settings.ts";
export * from "./transfers.ts";
export * from "./wires.ts";
