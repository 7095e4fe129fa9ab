// The ports the tests, benchmarks and simulator hand to the servers they start come from below the
// kernel's ephemeral range, where an outgoing connection cannot take one before the server binds
// it (or while a killed server restarts on it), and are free when drawn.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralLow, freePort } from "../helpers/ports.ts";

describe("freePort", () => {
  it("draws ports below the ephemeral range that a server can bind at once", async () => {
    const low = ephemeralLow();
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
    }
    // Drawn at random: forty draws are not all one port.
    expect(new Set(ports).size).toBeGreaterThan(30);
    const srv = net.createServer();
    await new Promise<void>((resolve, reject) => {
      srv.once("error", reject);
      srv.listen(ports[0], "127.0.0.1", () => resolve());
    });
    await new Promise((r) => srv.close(r));
  });
});
