// Where a webhook may be delivered (docs/decisions.md, "Where webhooks may go"): in sandbox mode anywhere, a dashboard on the same
// machine being a legitimate receiver; with the sandbox off only to globally reachable unicast
// addresses, never to any range of the IANA IPv4 and IPv6 special-purpose address registries
// (an IPv4 address carried inside an IPv6 one included), unless BANK_WEBHOOK_ALLOW lists the
// host or address. The check runs on every address the host resolves to, at registration and
// again at each delivery, and the connection is pinned to a checked address so that a second
// DNS answer cannot slip another address in between.
import dns from "node:dns/promises";
import net from "node:net";

/** The IANA IPv4 special-purpose address registry, and multicast. */
const IPV4_SPECIAL: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.31.196.0", 24], // AS112-v4
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // direct delegation AS112
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, limited broadcast
];

/**
 * IPv6 special-purpose ranges inside global unicast (2000::/3); everything outside 2000::/3 is
 * refused whole (loopback, unspecified, IPv4-compatible, discard, local-use NAT64 64:ff9b:1::/48,
 * SRv6, unique-local, link-local, site-local, multicast), except the two forms that carry an
 * IPv4 address to a host that has one: IPv4-mapped ::ffff:0:0/96 and NAT64 64:ff9b::/96, which
 * are judged by that IPv4 address. 6to4 and Teredo are refused whole: deprecated relays whose
 * far end the bank cannot see.
 */
const IPV6_SPECIAL_IN_GLOBAL: [string, number][] = [
  ["2001::", 23], // IETF protocol assignments, Teredo 2001::/32 and benchmarking 2001:2::/48 included
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["2620:4f:8000::", 48], // direct delegation AS112
  ["3fff::", 20], // documentation
];

const ipv4Special = new net.BlockList();
for (const [a, prefix] of IPV4_SPECIAL) ipv4Special.addSubnet(a, prefix, "ipv4");
const ipv6Special = new net.BlockList();
for (const [a, prefix] of IPV6_SPECIAL_IN_GLOBAL) ipv6Special.addSubnet(a, prefix, "ipv6");

/** The 16 bytes of an IPv6 address (a zone index is dropped), or null when it is not one. */
export function ipv6Bytes(ip: string): Uint8Array | null {
  const bare = ip.replace(/%.*$/, "");
  if (!net.isIPv6(bare)) return null;
  let text = bare;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split(".").map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = Number.parseInt(g, 16);
    bytes[2 * i] = n >> 8;
    bytes[2 * i + 1] = n & 0xff;
  });
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const dotted = (bytes: Uint8Array, at: number) => Array.from(bytes.subarray(at, at + 4)).join(".");

/** The IPv4 address an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) address reaches. */
export function embeddedIPv4(ip: string): string | null {
  const b = ipv6Bytes(ip);
  if (!b) return null;
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return dotted(b, 12);
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return dotted(b, 12);
  return null;
}

/** Any address not globally reachable unicast: every special-purpose range, embedded IPv4 judged. */
export function isSpecialAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return ipv4Special.check(ip, "ipv4");
  const b = ipv6Bytes(ip);
  if (!b) return true;
  const v4 = embeddedIPv4(ip);
  if (v4) return ipv4Special.check(v4, "ipv4");
  if ((b[0] & 0xe0) !== 0x20) return true;
  return ipv6Special.check(ip.replace(/%.*$/, ""), "ipv6");
}

/** URL hostnames carry IPv6 literals in brackets; a fully qualified name's final dot changes nothing. */
export const bareHost = (hostname: string) =>
  hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "")
    .toLowerCase();

/** Every address a host name has, in the order a connection would try them. */
export type HostLookup = (host: string) => Promise<string[]>;

/** The machine's own name service (getaddrinfo: /etc/hosts, then DNS). */
export const systemLookup: HostLookup = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface DestinationPolicy {
  /** Sandbox mode: every destination is allowed. */
  sandbox: boolean;
  /** BANK_WEBHOOK_ALLOW: host names, addresses or CIDRs. */
  allow: string[];
  /** Where host names are resolved; the machine's name service unless told. */
  lookup?: HostLookup;
}

const family = (ip: string): "ipv4" | "ipv6" => (net.isIPv6(ip) ? "ipv6" : "ipv4");

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
      hosts.add(bareHost(e));
    }
  }
  const address = (ip: string) => {
    const bare = ip.replace(/%.*$/, "");
    if (addresses.check(bare, family(bare))) return true;
    const v4 = embeddedIPv4(bare);
    return v4 !== null && addresses.check(v4, "ipv4");
  };
  return { host: (h: string) => hosts.has(bareHost(h)), address };
}

export type Destination =
  | {
      ok: true /** Pinned address, or undefined to let the connection resolve the host itself. */;
      address?: string;
    }
  | { ok: false; reason: string; unresolved?: boolean };

/** A registration waits this long for DNS; a name still unresolved is judged again at delivery. */
const REGISTRATION_LOOKUP_MS = 5_000;

export function createDestinationCheck(policy: DestinationPolicy) {
  const allowed = compileAllowList(policy.allow);
  const lookupHost = policy.lookup ?? systemLookup;

  async function lookup(host: string): Promise<string[]> {
    if (net.isIP(host)) return [host];
    return lookupHost(host);
  }

  /** Every address the host has, each checked; the first one is the address to connect to. */
  async function resolve(url: URL): Promise<Destination> {
    if (policy.sandbox) return { ok: true };
    const host = bareHost(url.hostname);
    if (!allowed.host(host) && (host === "localhost" || host.endsWith(".localhost")))
      return { ok: false, reason: `refused: ${host} is a loopback name, a special-purpose address` };
    let addresses: string[];
    try {
      addresses = await lookup(host);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? "error";
      return { ok: false, reason: `cannot resolve host: ${code}`, unresolved: true };
    }
    if (!addresses.length) return { ok: false, reason: "host has no address", unresolved: true };
    if (!allowed.host(host)) {
      const bad = addresses.find((a) => isSpecialAddress(a) && !allowed.address(a));
      if (bad)
        return {
          ok: false,
          reason: `refused: ${host} resolves to ${bad}, a loopback, private or special-purpose address`,
        };
    }
    return { ok: true, address: addresses[0] };
  }

  /**
   * Registration-time check: the same as at delivery. A host that does not resolve now is taken
   * (DNS may be down for a moment); each delivery resolves and checks it again.
   */
  async function refusedAtRegistration(url: URL): Promise<string | null> {
    if (policy.sandbox) return null;
    const timeout = new Promise<Destination>((r) =>
      setTimeout(() => r({ ok: false, reason: "", unresolved: true }), REGISTRATION_LOOKUP_MS).unref(),
    );
    const d = await Promise.race([resolve(url), timeout]);
    if (d.ok || d.unresolved) return null;
    return `must not point to a loopback, private or special-purpose address (${d.reason.replace(/^refused: /, "")})`;
  }

  return { refusedAtRegistration, resolve, lookup };
}
export type DestinationCheck = ReturnType<typeof createDestinationCheck>;
