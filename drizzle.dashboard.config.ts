import { defineConfig } from "drizzle-kit";

// The dashboard's database (lib/db), separate from the bank's (drizzle.config.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./lib/db/migrations",
});
