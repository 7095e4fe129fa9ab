import fs from "node:fs";
import path from "node:path";
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import type { SqlRow } from "../lib/server/sql-row.ts";
// `npm run bank`: the bank alone (empty unless BANK_DEMO=1).
import { startBank } from "./app.ts";
import { loadBankConfig } from "./config.ts";
import type { customers } from "./db/schema.ts";
import { seedDemo } from "./sandbox/demo.ts";

const config = loadBankConfig();
const running = await startBank(config);
console.log(
  `Bank listening on ${running.url} (${config.databaseUrl ? "PostgreSQL" : `PGlite in ${config.dataDir}`})`,
);
console.log(`API reference: ${running.url}/docs`);
if (running.sandboxSmtpUrl) console.log(`Sandbox mail box (SMTP): ${running.sandboxSmtpUrl}`);
if (config.sandbox) {
  console.log(
    `Sandbox key (${BANK_HEADERS.sandboxKey}): ${config.sandboxKey}${config.sandboxKeyGenerated ? " (generated; set BANK_SANDBOX_KEY to fix it)" : ""}`,
  );
}
if (config.demo) {
  const demo = await seedDemo(running.bank);
  console.log(demo.created ? "Demo data seeded." : "Demo data present.");
  if (demo.subscriptionKey) console.log(`Demo subscription key: ${demo.subscriptionKey}`);
  // `npm start` hands the demo key to the dashboard through this file (owner-only).
  const out = process.env.BANK_DEMO_CREDENTIALS_FILE;
  if (out && demo.subscriptionKey) {
    // The demo customer's webhook secret too: the dashboard checks the signatures of the
    // balance notifications it receives with it.
    const customer = await running.bank.customers.byKey(demo.subscriptionKey);
    const rows = customer
      ? await running.bank.db.query<Pick<SqlRow<typeof customers>, "webhook_secret">>(
          "SELECT webhook_secret FROM customers WHERE id = $1",
          [customer.id],
        )
      : [];
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      JSON.stringify({
        subscriptionKey: demo.subscriptionKey,
        webhookSecret: rows[0]?.webhook_secret ?? "",
        sandboxKey: config.sandboxKey,
        bankUrl: running.url,
        ...(running.sandboxSmtpUrl ? { sandboxSmtpUrl: running.sandboxSmtpUrl } : {}),
      }),
      { mode: 0o600 },
    );
  }
}

// A stop finishes what is in flight and hands the outbox's leases back (RunningBank.shutdown); a
// second signal, or a stop that outlives its timeout, ends the process at once.
let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    const bound = setTimeout(() => process.exit(1), config.drainDelayMs + config.shutdownTimeoutMs + 10_000);
    bound.unref();
    await running.shutdown();
    process.exit(0);
  });
}
