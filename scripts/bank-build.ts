// The bank as one file. `npm start`, the simulator, the benchmarks and the tests that start a bank
// process run bank/main.ts bundled by esbuild, not through tsx's loader: the same code ready in
// 0.6 CPU-s against 1.3 (a bank on PostgreSQL, 29 Nov), and a test run starts a bank about a
// hundred times. The bundle is made on demand, in under a second, when a source it was built from
// is newer than it; `npm run bank` still runs the sources through tsx.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

/** Where the bundle goes, under the repository (git ignores it). */
export const BANK_BUILD_DIR = ".bank-build";
/** The bundle's name, which process listings show (`node … .bank-build/bank-main.mjs`). */
export const BANK_BUNDLE = "bank-main.mjs";
const META = "bank-main.inputs.json";

interface Inputs {
  /** When the build began: a source saved during it makes the bundle stale. */
  startedAt: number;
  files: string[];
}

/** Whether every source the bundle was made from is still there and older than the build. */
function isCurrent(dir: string): boolean {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, META), "utf8")) as Inputs;
    if (!fs.existsSync(path.join(dir, BANK_BUNDLE))) return false;
    return meta.files.every((f) => fs.statSync(f).mtimeMs <= meta.startedAt);
  } catch {
    return false;
  }
}

/**
 * Each module keeps its own `import.meta.url` in the bundle: the bank finds its migrations and SQL
 * functions beside bank/db/client.ts, wherever the bundle sits.
 */
const ownUrls: Plugin = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      return {
        contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
        loader: "ts",
      };
    });
  },
};

/** Bundles bank/main.ts into `dir`: written aside and renamed into place, so a start never reads half a file. */
async function bundle(root: string, dir: string): Promise<void> {
  const startedAt = Date.now();
  fs.mkdirSync(dir, { recursive: true });
  const r = await build({
    entryPoints: [path.join(root, "bank/main.ts")],
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [ownUrls],
  });
  const tag = `${process.pid}.${Math.random().toString(36).slice(2)}`;
  const place = (name: string, contents: string | Uint8Array) => {
    const aside = path.join(dir, `${name}.${tag}`);
    fs.writeFileSync(aside, contents);
    fs.renameSync(aside, path.join(dir, name));
  };
  place(BANK_BUNDLE, r.outputFiles[0].contents);
  const files = Object.keys(r.metafile.inputs).map((f) => path.resolve(root, f));
  place(META, JSON.stringify({ startedAt, files } satisfies Inputs));
}

/** The arguments that run the bundle with `node` (made or not). */
export const bankBundleArgs = (root: string): string[] => [
  "--enable-source-maps",
  path.join(root, BANK_BUILD_DIR, BANK_BUNDLE),
];

/** The arguments that start the bank with `node`: the bundle, made first when it is missing or stale. */
export async function bankNodeArgs(root: string): Promise<string[]> {
  const dir = path.join(root, BANK_BUILD_DIR);
  if (!isCurrent(dir)) await bundle(root, dir);
  return bankBundleArgs(root);
}
