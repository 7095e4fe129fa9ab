// The sandbox mail box over SMTP: with BANK_SANDBOX_SMTP_PORT set, the bank takes messages from a
// local sender (the dashboard's alert e-mail under `npm start`) and files each in the same sandbox
// mail box as its own webhook e-mail, readable at GET /sandbox/mail. No TLS, no authentication:
// it listens on the bank's host only and exists only with the sandbox on.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { Bank } from "../context.ts";

// Room for a subscribed statement file (a BAI2 of several accounts runs to megabytes).
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

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

/** A file a message carried, its content base64 as sent. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

/** A part's headers (lower-case names, folded lines joined) and its body as written. */
function splitPart(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body: split < 0 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "") };
}

/** A header's parameter (`boundary`, `filename`), quoted or not. */
const param = (header: string | undefined, name: string) =>
  new RegExp(`${name}\\*?=(?:"([^"]*)"|([^;\\s]+))`, "i")
    .exec(header ?? "")
    ?.slice(1)
    .find((x) => x !== undefined);

function decodeText(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? "").toLowerCase();
  if (enc === "quoted-printable") return decodeQuotedPrintable(body);
  if (enc === "base64") return Buffer.from(body, "base64").toString("utf8");
  return body;
}

/** Walks a part: the first plain-text body found is the text; a part with a file name, a file. */
function walk(raw: string, out: { text: string | null; attachments: MailAttachment[] }): void {
  const { headers, body } = splitPart(raw);
  const type = (headers["content-type"] ?? "text/plain").toLowerCase();
  const boundary = param(headers["content-type"], "boundary");
  if (type.startsWith("multipart/") && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith("--")) break;
      walk(part.replace(/^\r?\n/, ""), out);
    }
    return;
  }
  const filename =
    param(headers["content-disposition"], "filename") ?? param(headers["content-type"], "name");
  if (filename) {
    const enc = (headers["content-transfer-encoding"] ?? "").toLowerCase();
    const content =
      enc === "base64"
        ? body.replace(/\s+/g, "")
        : Buffer.from(decodeText(body, enc), "utf8").toString("base64");
    out.attachments.push({
      filename: decodeHeader(filename),
      contentType: type.split(";")[0].trim(),
      contentBase64: content,
    });
    return;
  }
  if (out.text === null && type.startsWith("text/plain"))
    out.text = decodeText(body, headers["content-transfer-encoding"]);
}

/** Subject, Message-ID, the plain-text body and any files of a message (single part or multipart). */
export function parseMessage(raw: string): {
  subject: string;
  messageId: string;
  text: string;
  attachments: MailAttachment[];
} {
  const { headers } = splitPart(raw);
  const out: { text: string | null; attachments: MailAttachment[] } = { text: null, attachments: [] };
  walk(raw, out);
  return {
    subject: decodeHeader(headers.subject ?? ""),
    messageId: (headers["message-id"] ?? "").replace(/^<|>$/g, ""),
    text: (out.text ?? "").replace(/\r\n/g, "\n"),
    attachments: out.attachments,
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
            `INSERT INTO sandbox_mail ("to", subject, text, message_id, at, attachments)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
            [to, m.subject, m.text, m.messageId, bank.clock.now(), JSON.stringify(m.attachments)],
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
