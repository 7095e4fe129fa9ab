// A free port for a server a test, a benchmark or the simulator starts as a separate process. The
// port is chosen here and bound later by the child, so it is drawn below the machine's ephemeral
// range: a port the kernel hands out for `listen(0)` is one it also hands to outgoing connections,
// and on a busy machine (hundreds of connections to PostgreSQL, Chromium, the banks) one of them
// can take the port between this check and the child's bind, or while a killed server restarts on
// its port, and the child exits with EADDRINUSE. Below the range only another listener can take
// it, and each caller draws at random, so two rarely meet.
import fs from "node:fs";
import net from "node:net";

/** Where the kernel's ephemeral ports start (Linux), or the IANA default where it cannot be read. */
export function ephemeralLow(): number {
  try {
    const [low] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    const n = Number(low);
    if (Number.isInteger(n) && n > 1024) return n;
  } catch {}
  return 49152;
}

/** The lowest port drawn: above the well-known ports and the local services of these machines. */
const LOWEST = 10_000;

/** Binds `port` on 127.0.0.1 (0: the kernel's choice) and lets it go: the port bound, or null if taken. */
function probe(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", () => resolve(null));
    srv.listen(port, "127.0.0.1", () => {
      const bound = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(bound));
    });
  });
}

/** A port on 127.0.0.1 that nothing listens on now, outside the ephemeral range where it can. */
export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  if (high - LOWEST > 1000)
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = await probe(LOWEST + Math.floor(Math.random() * (high - LOWEST)));
      if (port !== null) return port;
    }
  // A machine whose ephemeral range starts low: the kernel's choice.
  const port = await probe(0);
  if (port === null) throw new Error("no free port on 127.0.0.1");
  return port;
}
