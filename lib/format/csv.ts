// The one CSV writer of every export (history, payments, audit): RFC 4180 with CRLF line ends and
// a header row, every text cell quoted and unable to start a formula, numbers only from our own
// formatting of integer cents (docs/decisions.md, "CSV exports").
import { centsToDecimal } from "../bank-api/money.ts";

/** A number cell: made only from integer cents by `csvCents`, never from text that came from outside. */
export class CsvNumber {
  private constructor(readonly text: string) {}
  /** Decimal dollars of integer cents ("-1250.50"), written unquoted so a spreadsheet reads a number. */
  static cents(cents: number): CsvNumber {
    if (!Number.isSafeInteger(cents)) throw new TypeError(`not integer cents: ${cents}`);
    return new CsvNumber(centsToDecimal(cents));
  }
}

export const csvCents = (cents: number): CsvNumber => CsvNumber.cents(cents);

/** A cell: text (absent is empty text) or one of our numbers. */
export type CsvCell = string | null | undefined | CsvNumber;

/**
 * Where a reader may begin a cell inside our text: its start, and after a comma, semicolon, tab,
 * bar or line break, since a reader set to another separator than ours splits there and ignores
 * our quotes. From such a place it passes over blanks (any Unicode space), invisible format
 * characters, controls and quotes; a formula sign (= + - @, full-width, small or minus-sign
 * forms) after them gets an apostrophe at that place, so the cell reads as text.
 */
const FORMULA_AFTER_SKIPPED =
  /(?<=^|[,;\t|\r\n])(?=[\s\p{Z}\p{Cc}\p{Cf}"]*[=+\-@\uff1d\uff0b\uff0d\uff20\u2212\ufe62\ufe63\ufe66\ufe6b])/gu;

/** Text as a spreadsheet must read it: formula starts neutralised (see above). */
export function neutralizeFormula(value: string): string {
  return value.replace(FORMULA_AFTER_SKIPPED, "'");
}

/** A text cell: always quoted (quotes doubled), formula starts neutralised. */
export function csvText(value: string | null | undefined): string {
  return `"${neutralizeFormula(value ?? "").replace(/"/g, '""')}"`;
}

/** One CSV line. */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map((c) => (c instanceof CsvNumber ? c.text : csvText(c))).join(",");
}

/** The whole file: the header row, then one line per row, each line ended by CRLF. */
export function csvDocument(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const lines = [csvLine(header)];
  for (const row of rows) lines.push(csvLine(row));
  return `${lines.join("\r\n")}\r\n`;
}

/** Parses CSV text (RFC 4180) into rows of fields; used by tests and by anyone re-reading an export. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      quoted = true;
      i++;
    } else if (c === ",") {
      row.push(field);
      field = "";
      i++;
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 2;
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
