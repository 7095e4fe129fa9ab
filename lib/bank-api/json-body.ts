// A strict reader of JSON request bodies. JSON.parse keeps the last of two equal names and
// rounds every number to a double, so a body could mean two things and an amount could lose
// digits before anyone looked at it: this reader refuses repeated names and keeps each
// number's text beside its value, so that amounts are judged by what the client wrote.

export class JsonBodyError extends Error {
  constructor(
    message: string,
    /** The name the problem is about ("body" when it is the text as a whole). */
    readonly field = "body",
  ) {
    super(message);
  }
}

/** Deeper nesting than any request of the contract: refused before it can exhaust the stack. */
const MAX_DEPTH = 32;

const numberTexts = new WeakMap<object, Map<string, string>>();

/** The text a number was written with in the body, for the member `name` of `obj`. */
export function jsonNumberText(obj: object, name: string): string | undefined {
  return numberTexts.get(obj)?.get(name);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The reader's state: the text and the position reached. Its steps are methods, made once,
 * rather than closures made for every body read.
 */
class Reader {
  i = 0;

  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new JsonBodyError(`malformed JSON: ${what} at position ${this.i}`);
  }

  skipSpace(): void {
    const text = this.text;
    let i = this.i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }

  readString(): string {
    const text = this.text;
    const start = this.i;
    let i = start + 1; // past the opening quote
    // A string with no escape and no control character is its own text; any other is decoded
    // (and judged) by JSON.parse.
    let plain = true;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) {
        this.i = i;
        this.fail("unterminated string");
      }
      if (c === 0x22) break;
      if (c === 0x5c) {
        plain = false;
        i += 2;
      } else {
        if (c < 0x20) plain = false;
        i++;
      }
    }
    this.i = i + 1;
    if (plain) return text.slice(start + 1, i);
    try {
      return JSON.parse(text.slice(start, i + 1)) as string;
    } catch {
      this.i = start;
      return this.fail("bad string");
    }
  }

  /** The literal `word` if the text has it here (its value), else undefined. */
  literal(word: string, value: boolean | null): boolean | null | undefined {
    if (!this.text.startsWith(word, this.i)) return undefined;
    this.i += word.length;
    return value;
  }

  /** `obj` and `name`: the member being read, whose number text is kept. */
  readValue(depth: number, obj?: object, name?: string): unknown {
    this.skipSpace();
    const c = this.text.charCodeAt(this.i);
    if (c === 0x7b) return this.readObject(depth + 1); // {
    if (c === 0x5b) return this.readArray(depth + 1); // [
    if (c === 0x22) return this.readString();
    const word =
      c === 0x74
        ? this.literal("true", true)
        : c === 0x66
          ? this.literal("false", false)
          : c === 0x6e
            ? this.literal("null", null)
            : undefined;
    if (word !== undefined) return word;
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail("unexpected character");
    this.i += m[0].length;
    if (obj && name !== undefined) {
      let texts = numberTexts.get(obj);
      if (!texts) {
        texts = new Map();
        numberTexts.set(obj, texts);
      }
      texts.set(name, m[0]);
    }
    return Number(m[0]);
  }

  readObject(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    const text = this.text;
    this.i++;
    const obj: Record<string, unknown> = {};
    this.skipSpace();
    if (text[this.i] === "}") {
      this.i++;
      return obj;
    }
    for (;;) {
      this.skipSpace();
      if (text[this.i] !== '"') this.fail("expected a name");
      const name = this.readString();
      // The object holds exactly the names read so far.
      if (Object.hasOwn(obj, name)) throw new JsonBodyError("appears more than once", name);
      this.skipSpace();
      if (text[this.i] !== ":") this.fail("expected ':'");
      this.i++;
      const value = this.readValue(depth, obj, name);
      // A member named __proto__ stays a member, never the object's prototype (assigning it
      // would call the prototype's setter); every other name is an ordinary own property.
      if (name === "__proto__")
        Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });
      else obj[name] = value;
      this.skipSpace();
      if (text[this.i] === ",") {
        this.i++;
        continue;
      }
      if (text[this.i] === "}") {
        this.i++;
        return obj;
      }
      this.fail("expected ',' or '}'");
    }
  }

  readArray(depth: number): unknown[] {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    const text = this.text;
    this.i++;
    const out: unknown[] = [];
    this.skipSpace();
    if (text[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.readValue(depth));
      this.skipSpace();
      if (text[this.i] === ",") {
        this.i++;
        continue;
      }
      if (text[this.i] === "]") {
        this.i++;
        return out;
      }
      this.fail("expected ',' or ']'");
    }
  }
}

export function readJsonBody(text: string): unknown {
  const r = new Reader(text);
  // A byte-order mark is not JSON, but some clients write one; it carries no meaning.
  if (text.charCodeAt(0) === 0xfeff) r.i = 1;
  const value = r.readValue(0);
  r.skipSpace();
  if (r.i < text.length) r.fail("unexpected text after the value");
  return value;
}
