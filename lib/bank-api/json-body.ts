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

const LITERALS = [
  ["true", true],
  ["false", false],
  ["null", null],
] as const;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function readJsonBody(text: string): unknown {
  let i = 0;

  const fail = (what: string): never => {
    throw new JsonBodyError(`malformed JSON: ${what} at position ${i}`);
  };

  const skipSpace = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };

  const readString = (): string => {
    const start = i;
    i++; // the opening quote
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail("unterminated string");
      if (c === 0x22) break;
      i += c === 0x5c ? 2 : 1;
    }
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      i = start;
      return fail("bad string");
    }
  };

  const readValue = (depth: number, holder?: { obj: object; name: string }): unknown => {
    skipSpace();
    const c = text[i];
    if (c === "{") return readObject(depth + 1);
    if (c === "[") return readArray(depth + 1);
    if (c === '"') return readString();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail("unexpected character");
    i += m[0].length;
    if (holder) {
      let texts = numberTexts.get(holder.obj);
      if (!texts) {
        texts = new Map();
        numberTexts.set(holder.obj, texts);
      }
      texts.set(holder.name, m[0]);
    }
    return Number(m[0]);
  };

  const readObject = (depth: number): Record<string, unknown> => {
    if (depth > MAX_DEPTH) fail("nested too deeply");
    i++;
    const obj: Record<string, unknown> = {};
    const seen = new Set<string>();
    skipSpace();
    if (text[i] === "}") {
      i++;
      return obj;
    }
    for (;;) {
      skipSpace();
      if (text[i] !== '"') fail("expected a name");
      const name = readString();
      if (seen.has(name)) throw new JsonBodyError("appears more than once", name);
      seen.add(name);
      skipSpace();
      if (text[i] !== ":") fail("expected ':'");
      i++;
      // defineProperty: a member named __proto__ stays a member, never the object's prototype.
      Object.defineProperty(obj, name, {
        value: readValue(depth, { obj, name }),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      skipSpace();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "}") {
        i++;
        return obj;
      }
      fail("expected ',' or '}'");
    }
  };

  const readArray = (depth: number): unknown[] => {
    if (depth > MAX_DEPTH) fail("nested too deeply");
    i++;
    const out: unknown[] = [];
    skipSpace();
    if (text[i] === "]") {
      i++;
      return out;
    }
    for (;;) {
      out.push(readValue(depth));
      skipSpace();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "]") {
        i++;
        return out;
      }
      fail("expected ',' or ']'");
    }
  };

  // A byte-order mark is not JSON, but some clients write one; it carries no meaning.
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  const value = readValue(0);
  skipSpace();
  if (i < text.length) fail("unexpected text after the value");
  return value;
}
