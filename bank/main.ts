// `npm run bank`: the bank alone (empty unless BANK_DEMO=1).
import { startBank } from "./app.ts";
import { loadBankConfig } from "./config.ts";
import { seedDemo } from "./sandbox/demo.ts";

const config = loadBankConfig();
const running = await startBank(config);
console.log(
  `Bank listening on ${running.url} (${config.databaseUrl ? "PostgreSQL" : `PGlite in ${config.dataDir}`})`,
);
console.log(`API reference: ${running.url}/docs`);
if (config.sandbox) {
  console.log(
    `Sandbox key (X-Sandbox-Key): ${config.sandboxKey}${config.sandboxKeyGenerated ? " (generated; set BANK_SANDBOX_KEY to fix it)" : ""}`,
  );
}
if (config.demo) {
  const demo = await seedDemo(running.bank);
  console.log(demo.created ? "Demo data seeded." : "Demo data present.");
  if (demo.subscriptionKey) console.log(`Demo subscription key: ${demo.subscriptionKey}`);
}

let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    await running.close();
    process.exit(0);
  });
}
