import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./bank/db/schema.ts",
  out: "./bank/db/migrations",
});
