// Who a request comes from when proxies stand in front, for both programs: an address is read
// from X-Forwarded-For only past proxies the operator named (TRUSTED_PROXIES for the dashboard,
// BANK_TRUSTED_PROXIES for the bank). Any client can write that header: believed blindly, a new
// value per attempt would escape a per-address limit and write a made-up address into a log.
//
// The hops are walked from the right (the connection's own peer last, then what each trusted
// proxy says it was reached from) to the first address that is not a trusted proxy. Anything that
// is not an address where an address should be ends the walk: nothing to its left is believed,
// and the client is "unknown".
import net from "node:net";

/** The client when the hops name none that can be believed. */
export const UNKNOWN_CLIENT = "unknown";

/** An address as written in a header, in the form a block list reads ("::ffff:10.0.0.1" is 10.0.0.1). */
export function normalizeAddress(raw: string): string | null {
  let a = raw.trim();
  // "[2001:db8::1]:443" and "203.0.113.7:51234", as some proxies write them.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(a)) a = a.slice(7);
  return net.isIP(a) ? a : null;
}

/**
 * A comma-separated list of addresses and CIDRs, as both settings are written: the entries, or the
 * first entry that is neither (so a wrong setting stops the start, not the first request).
 */
export function parseProxyList(text: string | undefined): { entries: string[] } | { bad: string } {
  const entries = (text ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of entries) {
    const [addr, bits, extra] = e.split("/");
    const max = net.isIPv6(addr) ? 128 : 32;
    const okBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (!net.isIP(addr) || !okBits || extra !== undefined) return { bad: e };
  }
  return { entries };
}

/** Splits X-Forwarded-For as Node or the Fetch API hands it over (one value, or one per header line). */
export function forwardedHops(value: string | string[] | null | undefined): string[] {
  if (!value) return [];
  return (Array.isArray(value) ? value.join(",") : value).split(",");
}

/** The named proxies, and the walk that finds the client behind them. */
export function trustedProxies(entries: readonly string[]) {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [addr, bits] = entry.split("/");
    const type = net.isIPv6(addr) ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  const trusted = (address: string | null | undefined): boolean => {
    const a = address ? normalizeAddress(address) : null;
    return !!a && list.check(a, net.isIPv6(a) ? "ipv6" : "ipv4");
  };
  return {
    trusted,
    /** The client: hops read from the right (the peer is the last), past trusted proxies. */
    clientOf(hops: readonly string[]): string {
      for (let i = hops.length - 1; i >= 0; i--) {
        const hop = normalizeAddress(hops[i]);
        if (!hop) return UNKNOWN_CLIENT;
        if (i === 0 || !trusted(hop)) return hop;
      }
      return UNKNOWN_CLIENT;
    },
  };
}
export type TrustedProxies = ReturnType<typeof trustedProxies>;
