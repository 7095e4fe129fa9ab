// The client's address and the browser's origin from forwarding headers, believed only from
// proxies named in TRUSTED_PROXIES. The dashboard's server appends the connection's address to
// X-Forwarded-For, so the rightmost entry is always the peer.
import { describe, expect, it } from "vitest";
import { clientAddress, requestOrigin } from "../../lib/auth/client-address.ts";

const xff = (v: string) => ({ "x-forwarded-for": v });

describe("the client's address", () => {
  it("is the peer when no proxy is trusted, whatever the client wrote before it", () => {
    expect(clientAddress(xff("127.0.0.1"), [])).toBe("127.0.0.1");
    expect(clientAddress(xff("198.51.100.7, 127.0.0.1"), [])).toBe("127.0.0.1");
    expect(clientAddress(xff("198.51.100.7,203.0.113.9, 192.0.2.44"), [])).toBe("192.0.2.44");
  });

  it("walks past trusted proxies from the right to the first address that is not one", () => {
    const proxies = ["10.0.0.0/8", "127.0.0.1"];
    expect(clientAddress(xff("203.0.113.9, 127.0.0.1"), proxies)).toBe("203.0.113.9");
    expect(clientAddress(xff("198.51.100.7, 203.0.113.9, 10.1.2.3, 127.0.0.1"), proxies)).toBe("203.0.113.9");
    // A client pretending to be a proxy gets no further: it is the first untrusted hop.
    expect(clientAddress(xff("10.9.9.9, 203.0.113.9, 127.0.0.1"), proxies)).toBe("203.0.113.9");
    // Every hop trusted: the leftmost is what the first proxy saw.
    expect(clientAddress(xff("10.0.0.5, 127.0.0.1"), proxies)).toBe("10.0.0.5");
  });

  it("reads IPv6, IPv4-mapped and port-suffixed forms", () => {
    expect(clientAddress(xff("2001:db8::1, ::ffff:127.0.0.1"), ["127.0.0.1"])).toBe("2001:db8::1");
    expect(clientAddress(xff("[2001:db8::2]:443, 127.0.0.1"), ["127.0.0.0/8"])).toBe("2001:db8::2");
    expect(clientAddress(xff("203.0.113.9:51234, ::1"), ["::1"])).toBe("203.0.113.9");
  });

  it("believes nothing left of something that is not an address", () => {
    expect(clientAddress(xff("203.0.113.9, evil, 127.0.0.1"), ["127.0.0.1"])).toBe("unknown");
    expect(clientAddress({}, [])).toBe("unknown");
  });
});

describe("the browser's origin", () => {
  const spoofing = {
    host: "127.0.0.1:3000",
    "x-forwarded-host": "attacker.example",
    "x-forwarded-proto": "https",
  };

  it("is the Host over http unless the peer is a trusted proxy", () => {
    expect(requestOrigin({ ...spoofing, ...xff("127.0.0.1") }, [])).toBe("http://127.0.0.1:3000");
    expect(requestOrigin({ ...spoofing, ...xff("10.0.0.9, 127.0.0.1") }, ["10.0.0.0/8"])).toBe(
      "http://127.0.0.1:3000",
    );
  });

  it("is what a trusted proxy says", () => {
    expect(requestOrigin({ ...spoofing, ...xff("203.0.113.9, 127.0.0.1") }, ["127.0.0.1"])).toBe(
      "https://attacker.example",
    );
  });
});

describe("one walk for both programs", () => {
  it("gives the bank's per-address limit the client the dashboard would log", async () => {
    const { loadBankConfig } = await import("../../bank/config.ts");
    const { forwardedHops, trustedProxies } = await import("../../lib/server/forwarded.ts");
    const proxies = trustedProxies(
      loadBankConfig({ BANK_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1" }).trustedProxies,
    );
    for (const [header, client] of [
      ["198.51.100.7, 203.0.113.9, 10.1.2.3", "203.0.113.9"],
      ["10.9.9.9, 203.0.113.9", "203.0.113.9"],
      ["203.0.113.9, evil", "unknown"],
    ]) {
      expect(proxies.clientOf([...forwardedHops(header), "127.0.0.1"])).toBe(client);
      expect(clientAddress(xff(`${header}, 127.0.0.1`), ["10.0.0.0/8", "127.0.0.1"])).toBe(client);
    }
    expect(() => loadBankConfig({ BANK_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/BANK_TRUSTED_PROXIES/);
  });
});
