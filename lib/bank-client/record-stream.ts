// An answer of record pages (`{"ResponseData":[{…, "<key>":[{record}, …]}], …}`) read as its text
// arrives. Each record's own text is parsed, checked against the contract's record schema and handed
// on as soon as its closing brace is seen; the rest of the answer (its head) is kept as text with the
// record lists left empty, to be parsed and checked whole at the end. A day of history is some 3.5 MB
// of text and 5,000 records: read whole, the text and the parsed answer lived long enough to reach
// V8's old generation, whose collector lets the heap grow to four times what it holds before it
// runs. Read this way, no more than one chunk and one record are held at once.
import type { z } from "zod";

/** Where a record failed its schema or could not be read: the issues, their paths from the answer's root. */
export interface RecordStreamFailure {
  kind: "mismatch" | "malformed" | "thrown";
  issues: z.core.$ZodIssue[];
  error?: unknown;
}

export class RecordStream<T, E> {
  /** Records handed on so far. */
  count = 0;
  readonly out: E[] = [];
  failure: RecordStreamFailure | null = null;

  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Container of each open depth while outside a record: "{" or "[". */
  private readonly open: string[] = [];
  /** Member keys of the root object (depth 1) and of the page being read (depth 3). */
  private rootKey = "";
  private pageKey = "";
  private text = "";
  private lastString = "";
  private readonly head: string[] = [];
  /** Inside the current page's record list. */
  private inRecords = false;
  private page = -1;
  private index = 0;
  /** Pieces of the record being read, when it spans chunks; null outside a record. */
  private record: string[] | null = null;

  constructor(
    private readonly records: { key: string; schema: z.ZodType<T> },
    private readonly each: (record: T, index: number) => E,
  ) {}

  push(chunk: string): void {
    let i = 0;
    const n = chunk.length;
    while (i < n && !this.failure) {
      if (this.record) i = this.inRecord(chunk, i);
      else if (this.inRecords) i = this.betweenRecords(chunk, i);
      else i = this.inHead(chunk, i);
    }
  }

  /** The answer without its records, parsed; a failure when the text was not whole JSON. */
  end(): unknown {
    if (this.failure) return undefined;
    if (this.depth !== 0 || this.inString || this.record || this.inRecords) {
      this.fail("malformed", [], "the answer ended before its JSON did");
      return undefined;
    }
    try {
      return JSON.parse(this.head.join(""));
    } catch {
      this.fail("malformed", [], "the answer is not JSON");
      return undefined;
    }
  }

  private fail(
    kind: RecordStreamFailure["kind"],
    path: (string | number)[],
    message: string,
    error?: unknown,
  ) {
    this.failure = {
      kind,
      issues: [{ code: "custom", path, message, input: undefined } as z.core.$ZodIssue],
      error,
    };
  }

  /** The head, character by character: it is a few hundred characters of a multi-megabyte answer. */
  private inHead(chunk: string, from: number): number {
    if (this.inString) return this.headString(chunk, from, false);
    let i = from;
    for (; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === '"') {
        this.head.push(chunk.slice(from, i));
        this.inString = true;
        this.text = "";
        return this.headString(chunk, i, true);
      }
      if (c === ":") {
        if (this.depth === 1) this.rootKey = keyOf(this.lastString);
        else if (this.depth === 3) this.pageKey = keyOf(this.lastString);
      } else if (c === "{" || c === "[") {
        this.open[this.depth++] = c;
        const inPages = this.depth >= 3 && this.open[1] === "[" && this.rootKey === "ResponseData";
        if (c === "{" && this.depth === 3 && inPages) {
          this.page++;
          this.pageKey = "";
        } else if (
          c === "[" &&
          this.depth === 4 &&
          inPages &&
          this.open[2] === "{" &&
          this.pageKey === this.records.key
        ) {
          this.head.push(chunk.slice(from, i + 1));
          this.inRecords = true;
          this.index = 0;
          return i + 1;
        }
      } else if (c === "}" || c === "]") {
        this.depth--;
      }
    }
    this.head.push(chunk.slice(from, i));
    return i;
  }

  /** A string of the head, kept in `text` from its opening quote to its closing one (it may span chunks). */
  private headString(chunk: string, from: number, opening: boolean): number {
    for (let i = opening ? from + 1 : from; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.escaped) this.escaped = false;
      else if (c === "\\") this.escaped = true;
      else if (c === '"') {
        this.inString = false;
        this.lastString = this.text + chunk.slice(from, i + 1);
        this.text = "";
        this.head.push(chunk.slice(from, i + 1));
        return i + 1;
      }
    }
    this.text += chunk.slice(from);
    this.head.push(chunk.slice(from));
    return chunk.length;
  }

  /** Between records of a list: commas and white space, a record's opening brace, or the list's end. */
  private betweenRecords(chunk: string, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      // , space tab CR LF
      if (c === 44 || c === 32 || c === 9 || c === 13 || c === 10) continue;
      if (c === 123 /* { */) {
        this.record = [];
        this.depth++;
        return this.inRecord(chunk, i, i + 1);
      }
      if (c === 93 /* ] */) {
        this.inRecords = false;
        this.depth--;
        this.head.push("]");
        return i + 1;
      }
      this.fail("mismatch", ["ResponseData", this.page, this.records.key, this.index], "Expected object");
      return chunk.length;
    }
    return chunk.length;
  }

  /** Inside a record: character by character (a tight loop over char codes) until its closing brace. */
  private inRecord(chunk: string, from: number, scanFrom = from): number {
    let inString = this.inString;
    let escaped = this.escaped;
    let depth = this.depth;
    const n = chunk.length;
    for (let i = scanFrom; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92 /* \\ */) escaped = true;
        else if (c === 34 /* " */) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
      else if ((c === 125 /* } */ || c === 93) /* ] */ && --depth === 4) {
        this.inString = false;
        this.escaped = false;
        this.depth = depth;
        const pieces = this.record as string[];
        const text = pieces.length ? pieces.join("") + chunk.slice(from, i + 1) : chunk.slice(from, i + 1);
        this.record = null;
        this.take(text);
        return i + 1;
      }
    }
    this.inString = inString;
    this.escaped = escaped;
    this.depth = depth;
    (this.record as string[]).push(chunk.slice(from));
    return n;
  }

  private take(text: string): void {
    const path = ["ResponseData", this.page, this.records.key, this.index];
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.fail("malformed", path, "a record is not JSON");
      return;
    }
    const checked = this.records.schema.safeParse(raw);
    if (!checked.success) {
      this.failure = {
        kind: "mismatch",
        issues: checked.error.issues.map((issue) => ({ ...issue, path: [...path, ...issue.path] })),
      };
      return;
    }
    try {
      this.out.push(this.each(checked.data, this.count));
    } catch (e) {
      this.fail("thrown", path, "the record could not be used", e);
      return;
    }
    this.count++;
    this.index++;
  }
}

/** A key's text from its quoted form. */
function keyOf(quoted: string): string {
  if (!quoted.includes("\\")) return quoted.slice(1, -1);
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return "";
  }
}
