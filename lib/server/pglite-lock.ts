// PGlite has no lock of its own: two processes on one directory silently lose writes
// (docs/decisions.md, "One process per PGlite directory"). A lock file holding the owner's pid makes the second opener fail loudly.
import fs from "node:fs";
import path from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class DirectoryInUseError extends Error {}

/** Takes the directory's lock or throws; returns the release function. */
export function lockDataDirectory(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "process.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {}
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number(fs.readFileSync(file, "utf8"));
      if (owner && alive(owner)) {
        throw new DirectoryInUseError(
          `The database directory ${dir} is in use by process ${owner}. ` +
            "Two processes on one embedded database lose writes: stop the other process or choose another directory.",
        );
      }
      // A stale lock from a process that died: take it over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new DirectoryInUseError(`Could not lock ${dir}`);
}
