// The sandbox mail box over SMTP: with BANK_SANDBOX_SMTP_PORT set, the bank takes messages from a
// local sender (the dashboard's alert e-mail under `npm start`) and files each in the same sandbox
// mail box as its own webhook e-mail, readable at GET /sandbox/mail. No TLS, no authentication:
// it listens on the bank's host only and exists only with the sandbox on.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { Bank } from "../context.ts";

const MAX_MESSAGE_BYTES = 256 * 1024;

function decodeQuotedPrintable(s: string): string {
  const bytes = Buffer.from(s.replace(/=\r?\n/g, ""), "latin1");
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes.toString("latin1", i + 1, i + 3);
    if (bytes[i] === 0x3d && /^[0-9A-F]{2}$/i.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else out.push(bytes[i]);
  }
  return Buffer.from(out).toString("utf8");
}

/** RFC 2047 encoded words (`=?utf-8?Q?…?=`, `=?utf-8?B?…?=`) in a header, as text. */
function decodeHeader(v: string): string {
  return v.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=\s*/g, (_, enc: string, data: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
}

/** Subject, Message-ID and the text body of a single-part plain-text message. */
export function parseMessage(raw: string): { subject: string; messageId: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let text = split < 0 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const enc = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  if (enc === "quoted-printable") text = decodeQuotedPrintable(text);
  else if (enc === "base64") text = Buffer.from(text, "base64").toString("utf8");
  return {
    subject: decodeHeader(headers.subject ?? ""),
    messageId: (headers["message-id"] ?? "").replace(/^<|>$/g, ""),
    text: text.replace(/\r\n/g, "\n"),
  };
}

/** Starts the receiver; resolves with its port once it listens. */
export async function startSandboxSmtp(bank: Bank, port: number): Promise<number> {
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    // No DNS on closed networks: a reverse lookup of each sender would only wait.
    disableReverseLookup: true,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          cb(Object.assign(new Error("Message too large"), { responseCode: 552 }));
          return;
        }
        const m = parseMessage(Buffer.concat(chunks).toString("utf8"));
        const to = session.envelope.rcptTo.map((r) => r.address).join(", ");
        bank.db
          .query(
            `INSERT INTO sandbox_mail ("to", subject, text, message_id, at) VALUES ($1, $2, $3, $4, $5)`,
            [to, m.subject, m.text, m.messageId, bank.clock.now()],
          )
          .then(
            () => cb(),
            (err: unknown) => {
              bank.log.warn("sandbox mail box: a message could not be filed", { err });
              cb(Object.assign(new Error("Try again later"), { responseCode: 451 }));
            },
          );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, bank.config.host, () => resolve());
  });
  bank.onClose(() => new Promise<void>((r) => server.close(() => r())));
  return (server.server.address() as AddressInfo).port;
}
