// Which address a request came from, and which host and scheme the browser used, believing
// forwarding headers only from the proxies named in TRUSTED_PROXIES (README, "Behind a load
// balancer"). Any client can send X-Forwarded-For: a new value per attempt would escape the
// sign-in limit and write a made-up address into the audit log. The dashboard's server
// (scripts/dashboard-server.js) appends the connection's own address to X-Forwarded-For, so the
// rightmost entry is the peer; the header is walked from the right, past trusted proxies, and
// the first address that is not one is the client.
import net from "node:net";
import { config } from "../config.ts";

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** An address as written in a header, in the form the block list reads ("::ffff:10.0.0.1" is 10.0.0.1). */
function normalize(raw: string): string | null {
  let a = raw.trim();
  // "[2001:db8::1]:443" and "203.0.113.7:51234", as some proxies write them.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(a)) a = a.slice(7);
  return net.isIP(a) ? a : null;
}

let cached: { spec: string; list: net.BlockList } | null = null;

/** The configured proxies as a block list (built once per setting). */
function trustedList(spec: readonly string[] = config().trustedProxies): net.BlockList {
  const key = spec.join(",");
  if (cached?.spec === key) return cached.list;
  const list = new net.BlockList();
  for (const entry of spec) {
    const [addr, bits] = entry.split("/");
    const type = net.isIPv6(addr) ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  cached = { spec: key, list };
  return list;
}

/** Whether an address is one of the proxies named in TRUSTED_PROXIES. */
export function isTrustedProxy(address: string, spec?: readonly string[]): boolean {
  const a = normalize(address);
  if (!a) return false;
  return trustedList(spec).check(a, net.isIPv6(a) ? "ipv6" : "ipv4");
}

/**
 * The client's address: X-Forwarded-For read from the right (the peer, then what each trusted
 * proxy says it received from), stopping at the first address that is not a trusted proxy.
 */
export function clientAddress(headers: HeaderSource, spec?: readonly string[]): string {
  const hops = (header(headers, "x-forwarded-for") ?? "").split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]);
    // Anything not an address where an address should be: nothing to the left of it is believed.
    if (!hop) return "unknown";
    if (i === 0 || !isTrustedProxy(hop, spec)) return hop;
  }
  return "unknown";
}

/** The connection's own address: the rightmost X-Forwarded-For entry, which our server appends. */
export function peerAddress(headers: HeaderSource): string | null {
  const hops = (header(headers, "x-forwarded-for") ?? "").split(",");
  return normalize(hops[hops.length - 1] ?? "");
}

/**
 * The scheme and host the browser used: what a trusted proxy says (X-Forwarded-Proto and -Host,
 * first value), else the request's own Host over http (the dashboard's server speaks plain http).
 */
export function requestOrigin(headers: HeaderSource, spec?: readonly string[]): string | null {
  const first = (v: string | undefined) => v?.split(",")[0]?.trim() || undefined;
  const peer = peerAddress(headers);
  const viaProxy = !!peer && isTrustedProxy(peer, spec);
  const proto = (viaProxy && first(header(headers, "x-forwarded-proto"))) || "http";
  const host = (viaProxy && first(header(headers, "x-forwarded-host"))) || header(headers, "host");
  if (!host) return null;
  try {
    return new URL(`${proto.replace(/:$/, "")}://${host}`).origin;
  } catch {
    return null;
  }
}
