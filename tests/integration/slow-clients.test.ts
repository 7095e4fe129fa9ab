// Slow clients cannot hold the bank's sockets: a request that does not arrive in full within
// the request time is answered 408 and closed, and one address holds a bounded number of
// connections. The bank here has a 1 s request time (the default is 10 s) so that the test is
// quick; the generous waits below only decide how long the test is willing to watch.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBank, type TestBank } from "../helpers/bank.ts";

let bank: TestBank;
let port: number;

beforeAll(async () => {
  bank = await startTestBank({
    env: { BANK_REQUEST_TIMEOUT_MS: "1000", BANK_MAX_CONNECTIONS_PER_ADDRESS: "4" },
  });
  port = Number(new URL(bank.url).port);
});
afterAll(() => bank?.close());

/** Opens a raw connection, writes `text`, and collects what comes back until the server closes it. */
function connect(text = "") {
  const socket = net.connect(port, "127.0.0.1");
  let data = "";
  const opened = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const closed = new Promise<string>((resolve) => {
    socket.on("data", (d) => {
      data += d.toString();
    });
    socket.on("close", () => resolve(data));
    socket.on("error", () => resolve(data));
  });
  socket.setNoDelay(true);
  if (text) socket.write(text);
  return { socket, opened, closed, data: () => data };
}

/** Waits for `p` up to `ms`; null when it did not settle in time. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

describe("slow clients", () => {
  it("answers 408 and closes a request whose body never arrives in full", async () => {
    const c = connect(
      'POST /v2/account/transfersen HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"Amount":',
    );
    const answer = await within(c.closed, 20_000);
    c.socket.destroy();
    expect(answer, "the connection was still open after 20 s").not.toBeNull();
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    // The slow client cost the bank nothing: the next request is answered as usual (and its
    // connection closed, so that the per-address limit below starts from none).
    const next = connect("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(await within(next.closed, 20_000)).toMatch(/^HTTP\/1.1 200/);
  });

  it("closes a connection whose headers trickle in", async () => {
    const c = connect("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    const timer = setInterval(() => c.socket.write("X-Slow: 1\r\n"), 200);
    const answer = await within(c.closed, 20_000);
    clearInterval(timer);
    c.socket.destroy();
    expect(answer, "the connection was still open after 20 s").not.toBeNull();
  });

  it("holds at most four connections from one address, and takes a fifth once one closes", async () => {
    const held = Array.from({ length: 4 }, () => connect());
    await Promise.all(held.map((h) => h.opened));
    // The server counts a connection when it accepts it: one request through each makes sure all four were.
    for (const h of held) h.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await expect
      .poll(() => held.every((h) => /^HTTP\/1.1 200/.test(h.data())), { timeout: 10_000 })
      .toBe(true);

    const fifth = connect("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    const refused = await within(fifth.closed, 10_000);
    expect(refused).toMatch(/^HTTP\/1.1 503/);
    expect(refused).toContain("Too many open connections");

    held[0].socket.destroy();
    await held[0].closed;
    await expect
      .poll(
        async () => {
          const again = connect("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
          const text = await within(again.closed, 5000);
          again.socket.destroy();
          return /^HTTP\/1.1 200/.test(text ?? "");
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe(true);
    for (const h of held) h.socket.destroy();
  });
});

describe("behind a load balancer (BANK_TRUSTED_PROXIES)", () => {
  let lb: TestBank;
  let lbPort: number;
  beforeAll(async () => {
    lb = await startTestBank({
      env: {
        BANK_REQUEST_TIMEOUT_MS: "5000",
        BANK_MAX_CONNECTIONS_PER_ADDRESS: "2",
        BANK_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8",
      },
    });
    lbPort = Number(new URL(lb.url).port);
  });
  afterAll(() => lb?.close());

  const through = (text: string) => {
    const socket = net.connect(lbPort, "127.0.0.1");
    let data = "";
    socket.on("data", (d) => {
      data += d.toString();
    });
    socket.on("error", () => {});
    socket.write(text);
    return { socket, data: () => data };
  };

  it("counts each client behind the proxy, not the proxy: many connections from it, two requests per client", async () => {
    // Five connections from the balancer's one address, each for another client: all served.
    const many = Array.from({ length: 5 }, (_, i) =>
      through(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.${i + 1}\r\n\r\n`),
    );
    await expect
      .poll(() => many.every((c) => /^HTTP\/1.1 200/.test(c.data())), { timeout: 10_000 })
      .toBe(true);

    // One client holds two requests in flight (bodies still arriving), through a second proxy hop.
    const slow = `POST /v2/account/transfersen HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nX-Forwarded-For: 203.0.113.7, 10.1.2.3\r\n\r\n{`;
    const held = [through(slow), through(slow)];
    await new Promise((r) => setTimeout(r, 300));
    // Its third is refused; the proxy's connection stays open for the others' requests.
    const third = through(
      "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.200\r\n\r\n",
    );
    await expect.poll(() => (third.data().match(/HTTP\/1.1 \d+/g) ?? []).length, { timeout: 10_000 }).toBe(2);
    expect(third.data().match(/HTTP\/1.1 \d+/g)).toEqual(["HTTP/1.1 503", "HTTP/1.1 200"]);
    expect(third.data()).toContain("Too many open connections");
    for (const c of [...many, ...held, third]) c.socket.destroy();
  });

  it("believes X-Forwarded-For only from a listed proxy", async () => {
    const plain = await startTestBank({ env: { BANK_MAX_CONNECTIONS_PER_ADDRESS: "2" } });
    try {
      const p = Number(new URL(plain.url).port);
      const spoofed = Array.from({ length: 3 }, (_, i) => {
        const socket = net.connect(p, "127.0.0.1");
        let data = "";
        socket.on("data", (d) => {
          data += d.toString();
        });
        socket.on("error", () => {});
        socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 192.0.2.${i + 1}\r\n\r\n`);
        return { socket, data: () => data };
      });
      await expect
        .poll(() => spoofed.every((c) => /^HTTP\/1.1 \d+/.test(c.data())), { timeout: 10_000 })
        .toBe(true);
      expect(spoofed.map((c) => c.data().slice(0, 12)).sort()).toEqual([
        "HTTP/1.1 200",
        "HTTP/1.1 200",
        "HTTP/1.1 503",
      ]);
      for (const c of spoofed) c.socket.destroy();
    } finally {
      await plain.close();
    }
  });
});
