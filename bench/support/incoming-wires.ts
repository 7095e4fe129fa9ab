// Incoming wires for a benchmark's queue, posted to the bank's sandbox eight requests at a time;
// each carries its number in its originator and invoice.
import type { DemoBank } from "../../tests/helpers/live.ts";

export async function postIncomingWires(sandbox: DemoBank["sandbox"], accountNumber: string, count: number) {
  for (let i = 0; i < count; i += 8)
    await Promise.all(
      Array.from({ length: Math.min(8, count - i) }, (_, k) =>
        sandbox("/sandbox/incoming-wires", {
          accountNumber,
          amount: 100 + ((i + k) % 900) + 0.25,
          originatorName: `BENCH ORIGINATOR ${i + k}`,
          originatorToBeneficiaryInfo: `BENCH INVOICE ${i + k}`,
        }),
      ),
    );
}
