// Which address a request came from, and which host and scheme the browser used, believing
// forwarding headers only from the proxies named in TRUSTED_PROXIES (README, "Behind a load
// balancer"). Any client can send X-Forwarded-For: a new value per attempt would escape the
// sign-in limit and write a made-up address into the audit log. The dashboard's server
// (scripts/dashboard-server.js) appends the connection's own address to X-Forwarded-For, so the
// rightmost entry is the peer; the walk itself is the bank's too (lib/server/forwarded.ts).
import { config } from "../config.ts";
import { forwardedHops, normalizeAddress, type TrustedProxies, trustedProxies } from "../server/forwarded.ts";

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : v;
}

let cached: { spec: string; proxies: TrustedProxies } | null = null;

/** The configured proxies (built once per setting). */
function proxies(spec: readonly string[] = config().trustedProxies): TrustedProxies {
  const key = spec.join(",");
  if (cached?.spec !== key) cached = { spec: key, proxies: trustedProxies(spec) };
  return cached.proxies;
}

/** Whether an address is one of the proxies named in TRUSTED_PROXIES. */
export function isTrustedProxy(address: string, spec?: readonly string[]): boolean {
  return proxies(spec).trusted(address);
}

/**
 * The client's address: X-Forwarded-For read from the right (the peer, then what each trusted
 * proxy says it received from), stopping at the first address that is not a trusted proxy.
 */
export function clientAddress(headers: HeaderSource, spec?: readonly string[]): string {
  return proxies(spec).clientOf(forwardedHops(header(headers, "x-forwarded-for")));
}

/** The connection's own address: the rightmost X-Forwarded-For entry, which our server appends. */
export function peerAddress(headers: HeaderSource): string | null {
  return normalizeAddress(forwardedHops(header(headers, "x-forwarded-for")).at(-1) ?? "");
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
