// Where a webhook may be delivered (docs/decisions.md, "Where webhooks may go"): in sandbox mode anywhere, a dashboard on the same
// machine being a legitimate receiver; with the sandbox off, never to loopback, private or
// link-local addresses unless the host or address is listed in BANK_WEBHOOK_ALLOW. The check
// runs on every address the host resolves to, and the connection is pinned to a checked address
// so that a second DNS answer cannot slip a private address in between.
import dns from "node:dns/promises";
import net from "node:net";

const PRIVATE_RANGES: [string, number, "ipv4" | "ipv6"][] = [
  ["0.0.0.0", 8, "ipv4"],
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["224.0.0.0", 4, "ipv4"],
  ["240.0.0.0", 4, "ipv4"],
  ["::", 128, "ipv6"],
  ["::1", 128, "ipv6"],
  ["fc00::", 7, "ipv6"],
  ["fe80::", 10, "ipv6"],
  ["ff00::", 8, "ipv6"],
];

const privateAddresses = new net.BlockList();
for (const [a, prefix, type] of PRIVATE_RANGES) privateAddresses.addSubnet(a, prefix, type);

const family = (ip: string): "ipv4" | "ipv6" => (net.isIPv6(ip) ? "ipv6" : "ipv4");

/** Loopback, private, link-local, unspecified or multicast (IPv4-mapped IPv6 included). */
export function isPrivateAddress(ip: string): boolean {
  return privateAddresses.check(ip, family(ip));
}

/** URL hostnames carry IPv6 literals in brackets. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();

export interface DestinationPolicy {
  /** Sandbox mode: every destination is allowed. */
  sandbox: boolean;
  /** BANK_WEBHOOK_ALLOW: host names, addresses or CIDRs. */
  allow: string[];
}

export function compileAllowList(entries: string[]) {
  const hosts = new Set<string>();
  const addresses = new net.BlockList();
  for (const raw of entries) {
    const e = raw.trim().toLowerCase();
    if (!e) continue;
    const [ip, bits] = e.split("/");
    if (net.isIP(ip) && bits !== undefined && /^\d+$/.test(bits)) {
      addresses.addSubnet(ip, Number(bits), family(ip));
    } else if (net.isIP(bareHost(e))) {
      addresses.addAddress(bareHost(e), family(bareHost(e)));
    } else {
      hosts.add(e);
    }
  }
  return {
    host: (h: string) => hosts.has(bareHost(h)),
    address: (ip: string) => addresses.check(ip, family(ip)),
  };
}

export type Destination =
  | {
      ok: true /** Pinned address, or undefined to let the connection resolve the host itself. */;
      address?: string;
    }
  | { ok: false; reason: string };

export function createDestinationCheck(policy: DestinationPolicy) {
  const allowed = compileAllowList(policy.allow);

  /** Registration-time check without DNS: a literal private address or a localhost name. */
  function refusedAtRegistration(url: URL): string | null {
    if (policy.sandbox || allowed.host(url.hostname)) return null;
    const host = bareHost(url.hostname);
    if (host === "localhost" || host.endsWith(".localhost")) return "must not point to a loopback address";
    if (net.isIP(host) && isPrivateAddress(host) && !allowed.address(host))
      return "must not point to a loopback or private address";
    return null;
  }

  /** Delivery-time check: resolves the host and checks every address it has. */
  async function resolve(url: URL): Promise<Destination> {
    if (policy.sandbox) return { ok: true };
    const host = bareHost(url.hostname);
    const hostAllowed = allowed.host(host);
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
      } catch (e) {
        return { ok: false, reason: `cannot resolve host: ${(e as NodeJS.ErrnoException).code ?? "error"}` };
      }
    }
    if (!addresses.length) return { ok: false, reason: "host has no address" };
    if (!hostAllowed) {
      const bad = addresses.find((a) => isPrivateAddress(a) && !allowed.address(a));
      if (bad) return { ok: false, reason: `refused: ${host} resolves to a loopback or private address` };
    }
    return { ok: true, address: addresses[0] };
  }

  return { refusedAtRegistration, resolve };
}
export type DestinationCheck = ReturnType<typeof createDestinationCheck>;
