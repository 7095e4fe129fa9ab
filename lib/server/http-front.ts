// What the dashboard's HTTP server (scripts/dashboard-server.js) shares with the code behind it:
// the exchange of each request (the route wrapper names its route pattern there, so the server
// counts every request once, pages, sign-in and unknown paths included) and the server's own
// part of a graceful stop (no new connections; every answer closes its connection).

/** One request as the server sees it, from arrival to the last byte of its answer. */
export interface Exchange {
  /** The route pattern, when a route wrapper served it; the server labels the rest itself. */
  route?: string;
}

export interface HttpFront {
  /** The exchange of the request being served, or undefined outside one. */
  exchange(): Exchange | undefined;
  /** Stops accepting connections; every later answer closes its connection. */
  stopAccepting(): void;
  /** Resolves once no answer is under way (event streams aside) or after `timeoutMs`. */
  answered(timeoutMs: number): Promise<void>;
  /** Resolves once every connection has closed (idle ones are closed by the server) or after `timeoutMs`. */
  closed(timeoutMs: number): Promise<void>;
}

const KEY = Symbol.for("treasury.httpFront");

/** The server's front, when the dashboard runs under scripts/dashboard-server.js. */
export function httpFront(): HttpFront | undefined {
  return (globalThis as { [KEY]?: HttpFront })[KEY];
}
