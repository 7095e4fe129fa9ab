// Who a request comes from when a load balancer stands in front: its own address is every
// client's, so the per-address connection limit would count the whole fleet's clients as one.
// Only the peers listed in BANK_TRUSTED_PROXIES are believed about X-Forwarded-For; anyone else
// could write any address there.
import net from "node:net";

/** An IPv4 peer as a dual-stack socket reports it (::ffff:a.b.c.d) is that IPv4 address. */
const plain = (ip: string) => ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");

export function compileTrustedProxies(entries: string[]) {
  const list = new net.BlockList();
  for (const raw of entries) {
    const e = raw.trim();
    if (!e) continue;
    const [ip, bits] = e.split("/");
    const family = net.isIPv6(ip) ? "ipv6" : "ipv4";
    if (!net.isIP(ip) || (bits !== undefined && !/^\d+$/.test(bits)))
      throw new Error(`BANK_TRUSTED_PROXIES: "${e}" is not an address or a CIDR`);
    if (bits === undefined) list.addAddress(ip, family);
    else list.addSubnet(ip, Number(bits), family);
  }
  const trusted = (ip: string | undefined) => {
    if (!ip) return false;
    const p = plain(ip);
    return net.isIP(p) !== 0 && list.check(p, net.isIPv6(p) ? "ipv6" : "ipv4");
  };
  return {
    trusted,
    /**
     * The client behind a trusted peer: the right-most X-Forwarded-For entry that is not itself a
     * trusted proxy (each proxy appends the address it was reached from), else the peer.
     */
    clientOf(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
      const self = plain(peer ?? "");
      if (!trusted(peer) || !forwardedFor) return self;
      const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
        .split(",")
        .map((h) => plain(h.trim()))
        .filter((h) => net.isIP(h) !== 0);
      for (let i = hops.length - 1; i >= 0; i--) if (!trusted(hops[i])) return hops[i];
      return hops[0] ?? self;
    },
  };
}
export type TrustedProxies = ReturnType<typeof compileTrustedProxies>;
