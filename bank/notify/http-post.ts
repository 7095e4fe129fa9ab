// One notification POST on node:http(s): keep-alive agents shared by every delivery, a hard
// deadline, the connection pinned to the address the destination check approved.

import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

/** A receiver that has not answered in this time has failed the attempt. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** What is read of a receiver's answer: only the status counts. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostOutcome {
  statusCode?: number;
  error?: string;
}

/**
 * `lookupHost` resolves a host whose address is not pinned (the sandbox's deliveries): the same
 * name service the destination check uses.
 */
export function createPoster(maxSockets: number, lookupHost?: (host: string) => Promise<string[]>) {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
    "https:": new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
  };

  const familyOf = (address: string) => (address.includes(":") ? 6 : 4);

  function pinnedLookup(address: string): LookupFunction {
    return (_host, options, callback) => {
      if ((options as { all?: boolean }).all)
        (callback as (e: null, a: object[]) => void)(null, [{ address, family: familyOf(address) }]);
      else callback(null, address, familyOf(address));
    };
  }

  const resolvingLookup: LookupFunction | undefined = lookupHost
    ? (host, options, callback) => {
        lookupHost(host).then(
          (addresses) => {
            if (!addresses.length) {
              callback(Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" }), "", 4);
            } else if ((options as { all?: boolean }).all) {
              (callback as (e: null, a: object[]) => void)(
                null,
                addresses.map((address) => ({ address, family: familyOf(address) })),
              );
            } else callback(null, addresses[0], familyOf(addresses[0]));
          },
          (e: NodeJS.ErrnoException) => callback(e, "", 4),
        );
      }
    : undefined;

  function post(
    url: URL,
    body: string,
    headers: Record<string, string>,
    opts: { address?: string; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<PostOutcome> {
    const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    return new Promise<PostOutcome>((resolve) => {
      let settled = false;
      const finish = (o: PostOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        resolve(o);
      };
      const mod = url.protocol === "https:" ? https : http;
      const req = mod.request(url, {
        method: "POST",
        agent: agents[url.protocol as "http:" | "https:"],
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "BankWebhooks/2.0",
        },
        ...(opts.address
          ? { lookup: pinnedLookup(opts.address) }
          : resolvingLookup
            ? { lookup: resolvingLookup }
            : {}),
      });
      const timer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const onAbort = () => req.destroy(new Error("delivery stopped"));
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      req.on("response", (res) => {
        let read = 0;
        res.on("data", (c: Buffer) => {
          read += c.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () => finish({ statusCode: res.statusCode });
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      });
      req.on("error", (e: NodeJS.ErrnoException) =>
        finish({ error: e.code ? `${e.code}: ${e.message}` : e.message }),
      );
      req.end(body);
    });
  }

  return {
    post,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
export type Poster = ReturnType<typeof createPoster>;
