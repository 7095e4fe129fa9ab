// A page's first-load JavaScript: every script its HTML loads, gzip-compressed, as a benchmark
// result with the 200 kB target.
import zlib from "node:zlib";
import { type BenchResult, round } from "../lib.ts";

export async function firstLoadJs(
  base: string,
  name: string,
  page: string,
  cookie: string,
): Promise<BenchResult> {
  const html = await (await fetch(`${base}${page}`, { headers: { cookie } })).text();
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js[^"]*)"/g)) srcs.add(m[1]);
  let bytes = 0;
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src.replace(/&amp;/g, "&"), base))).arrayBuffer());
    bytes += zlib.gzipSync(body).length;
  }
  return {
    name: `first_load_js_gzip_${name}`,
    value: round(bytes / 1024, 1),
    unit: "kB",
    better: "lower",
    target: 200,
  };
}
