// What `server-only` becomes under vitest (vitest.config.ts): the tests import server modules
// directly, outside Next's server build, where the real package would throw.
export {};
