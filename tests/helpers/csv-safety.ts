// What a CSV export must be, whichever program opens it: every text cell quoted, every number one
// we formatted, and nowhere a place a spreadsheet could start a cell with a formula. The check
// stands apart from the writer (lib/format/csv.ts) so it cannot share the writer's mistakes.
import { expect } from "vitest";

/** Text that reaches our exports from outside: people, the bank, the originator of a wire. */
export const FORMULA_ATTACKS = [
  "=1+1",
  "+1+1",
  "-1+1",
  "@SUM(A1)",
  "=cmd|' /C calc'!A0",
  "ORIG:x;=cmd|' /C calc'!A0",
  "  =1+1",
  "\t=1+1",
  "\r=1+1",
  "\n=1+1",
  " \t @SUM(A1)",
  "＝1+1",
  "＋1+1",
  "－1+1",
  "＠SUM(A1)",
  "\u00a0=1+1",
  "\u3000=1+1",
  "\u200b=1+1",
  "\ufeff=1+1",
  "\u00ad=1+1",
  "\u2212" + "1+1",
  '"=1+1"',
  'say ""=1+1""',
  "a,=1+1",
  "a;+1+1",
  "a\t-1+1",
  "a|@SUM(A1)",
  "a\r\n=1+1",
  "a, =1+1",
  "a;＝1+1",
  "-12.50",
  "12.50",
] as const;

/** Blanks, invisible format characters and quotes: what a reader passes over before a cell's first sign. */
const SKIPPED = /^[\s\p{Z}\p{Cc}\p{Cf}"]*/u;
/** The signs that start a formula, in their ASCII, full-width, small and minus-sign forms. */
const FORMULA_START = /^[=+\-@\uff1d\uff0b\uff0d\uff20\u2212\ufe62\ufe63\ufe66\ufe6b]/u;
/** A number as our own formatting writes one. */
const OUR_NUMBER = /^-?\d+\.\d{2}$/;

/** The cells of a CSV text (RFC 4180), each with whether it was quoted. */
export function rawCells(text: string): { value: string; quoted: boolean }[][] {
  const rows: { value: string; quoted: boolean }[][] = [];
  let row: { value: string; quoted: boolean }[] = [];
  let i = 0;
  while (i < text.length) {
    let value = "";
    let quoted = false;
    if (text[i] === '"') {
      quoted = true;
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted cell");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") value += text[i++];
      if (value.includes('"')) throw new Error(`a quote inside an unquoted cell: ${value}`);
    }
    row.push({ value, quoted });
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") i += 2;
    else if (i < text.length) throw new Error(`cell not followed by a separator or CRLF at ${i}`);
    rows.push(row);
    row = [];
  }
  if (row.length) rows.push(row);
  return rows;
}

/**
 * Every place a reader could start a cell: the file's start, and after every comma, semicolon,
 * tab, bar or line break, quoted or not (a reader set to another separator ignores our quotes:
 * it splits `"a","b;=x"` between b and =). What begins there must not be a formula.
 */
export function formulaStarts(text: string): string[] {
  const found: string[] = [];
  for (const piece of text.split(/[,;\t|\r\n]/)) {
    if (OUR_NUMBER.test(piece)) continue;
    const rest = piece.replace(SKIPPED, "");
    if (FORMULA_START.test(rest)) found.push(piece);
  }
  return found;
}

/**
 * Asserts the CSV text is safe: every cell quoted except our numbers in `numberColumns`, and no
 * formula start anywhere a reader with any usual separator could begin a cell.
 */
export function expectSafeCsv(text: string, numberColumns: readonly string[] = []): void {
  const rows = rawCells(text);
  const header = rows[0].map((c) => c.value);
  const numeric = new Set(numberColumns.map((c) => header.indexOf(c)));
  expect(numeric.has(-1), `number columns ${numberColumns} in ${header}`).toBe(false);
  for (const row of rows) {
    expect(row.length).toBe(header.length);
    row.forEach((cell, i) => {
      if (cell.quoted) return;
      expect(
        numeric.has(i) && row !== rows[0] && OUR_NUMBER.test(cell.value),
        `unquoted cell ${JSON.stringify(cell.value)} in column ${header[i]}`,
      ).toBe(true);
    });
  }
  expect(formulaStarts(text)).toEqual([]);
}
