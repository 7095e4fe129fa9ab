// The bank as it appears on the wire: its routing number, name and Fedwire terminal, and the
// identifiers the simulated Fedwire hands out (payment ids, timestamps, IMAD and OMAD).
import { randomBytes } from "node:crypto";

/** This bank's ABA routing number (valid check digit) and its name on Fedwire messages. */
export const BANK_ABA = "091999997";
export const BANK_NAME = "TREASURY BANK NA";
export const BANK_ADDRESS = "100 MARKET STREET NEW YORK NY";
/** The bank's Fedwire logical terminal: the 8-character input source of every IMAD it sends. */
export const BANK_LTERM = "TRSBNK01";
/** The Federal Reserve's terminal named in every OMAD (the output destination of a message). */
const FED_OUTPUT_LTERM = "FRBNYC1R";

const ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A payment id: direction letter, business date YYMMDD, eight random characters (15 in all, the record's limit). */
export function newPaymentId(direction: "O" | "I" | "R", businessDate: string): string {
  const bytes = randomBytes(8);
  let tail = "";
  for (const b of bytes) tail += ID_ALPHABET[b % ID_ALPHABET.length];
  return `${direction}${businessDate.slice(2).replaceAll("-", "")}${tail}`;
}

/** `YYYY-MM-DD hh:mm:ss.fff` in UTC: fixed width, so later instants sort later as text. */
export function formatPaymentTimestamp(at: Date): string {
  return at.toISOString().replace("T", " ").slice(0, 23);
}

export function parsePaymentTimestamp(ts: string): number {
  return Date.parse(`${ts.replace(" ", "T")}Z`);
}

/** The timestamp of a new status: now, but always after the previous one, so every change is visible. */
export function nextPaymentTimestamp(previous: string, now: Date): string {
  const prev = parsePaymentTimestamp(previous);
  const at = Number.isNaN(prev) ? now.getTime() : Math.max(now.getTime(), prev + 1);
  return formatPaymentTimestamp(new Date(at));
}

export interface MessageReference {
  imad: string;
  omad: string;
  cycleDate: string;
  calendarDate: string;
  applicationId: string;
  lterm: string;
  imsn: string;
  time: string;
}

/**
 * Fedwire message references. IMAD: input cycle date YYYYMMDD, the sender's 8-character
 * terminal, a 6-digit input sequence number. OMAD: output cycle date, the output terminal,
 * a 6-digit output sequence, output date MMDD and time hhmm.
 */
export function messageReference(
  businessDate: string,
  at: Date,
  senderLterm: string,
  sequence: number,
): MessageReference {
  const cycleDate = businessDate.replaceAll("-", "");
  const imsn = String(sequence % 1_000_000).padStart(6, "0");
  const osn = String((sequence * 7 + 13) % 1_000_000).padStart(6, "0");
  const time = at.toISOString().slice(11, 16).replace(":", "");
  return {
    imad: `${cycleDate}${senderLterm}${imsn}`,
    omad: `${cycleDate}${FED_OUTPUT_LTERM}${osn}${cycleDate.slice(4)}${time}`,
    cycleDate,
    calendarDate: at.toISOString().slice(0, 10).replaceAll("-", ""),
    applicationId: senderLterm.slice(0, 4),
    lterm: senderLterm,
    imsn,
    time,
  };
}

/** An 8-character terminal id for another bank, stable per routing number. */
export function ltermOf(routingId: string): string {
  const digits = routingId.replace(/\D/g, "").padEnd(4, "0").slice(-4);
  return `QMGF${digits}`;
}
