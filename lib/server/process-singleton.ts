// One value per process, kept on globalThis: route bundles may load a module more than once, and
// each copy must reach the same connection, client or hub.

/**
 * `get` opens the value on first use and shares it; a failed open is not kept, so the next use
 * tries again. `set` puts a given value (or none) in its place, for tests and scripts.
 */
export function processSingleton<T>(name: string, open: () => Promise<T>) {
  const key = Symbol.for(name);
  const g = globalThis as { [key]?: Promise<T> };
  return {
    get(): Promise<T> {
      const held = g[key];
      if (held) return held;
      const p = open();
      g[key] = p;
      p.catch(() => {
        if (g[key] === p) g[key] = undefined;
      });
      return p;
    },
    /** The value if it was opened (or is opening), without opening it. */
    peek(): Promise<T> | undefined {
      return g[key];
    },
    set(value: T | undefined): void {
      g[key] = value === undefined ? undefined : Promise.resolve(value);
    },
  };
}
