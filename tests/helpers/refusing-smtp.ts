// A mail server that refuses every message, as a relay refusing the dashboard would: each
// statement delivery sent through it is a failed attempt.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface RefusingSmtp {
  url: string;
  /** Messages refused so far. */
  refused(): number;
  close(): Promise<void>;
}

export async function startRefusingSmtp(): Promise<RefusingSmtp> {
  let refused = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, cb) {
      stream.resume();
      stream.on("end", () => {
        refused++;
        cb(Object.assign(new Error("Relay access denied"), { responseCode: 554 }));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
