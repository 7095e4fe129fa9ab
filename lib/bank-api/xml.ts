// The XML codec: the specification offers every body as JSON and as XML with the same names.
// Requests: the root element's children are the fields; repeated elements become arrays.
// Responses: objects become elements, arrays repeat their element name.
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";

export class XmlError extends Error {}

const CDATA = "#cdata";
const TEXT = "#text";

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Whether a code point may appear in an XML document (XML 1.0, "Char"). */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Decodes the five predefined entities and numeric character references; any other entity is refused. */
function decodeReferences(text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (ref, name: string) => {
    if (!ref.endsWith(";")) throw new XmlError(`malformed reference: ${ref}`);
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
    if (numeric) {
      const cp = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
      if (!isXmlChar(cp)) throw new XmlError(`character reference ${ref} is not an XML character`);
      return String.fromCodePoint(cp);
    }
    const predefined = PREDEFINED[name];
    if (predefined === undefined)
      throw new XmlError(`entity ${ref} is not declared (entities are not accepted)`);
    return predefined;
  });
}

/** Decodes every text value of a parsed element; CDATA sections are taken as written. */
function decodeValues(value: unknown): unknown {
  if (typeof value === "string") return decodeReferences(value);
  if (Array.isArray(value)) return value.map(decodeValues);
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length && keys.every((k) => k === TEXT || k === CDATA)) {
      const cdata = obj[CDATA];
      return `${obj[TEXT] === undefined ? "" : decodeReferences(String(obj[TEXT]))}${Array.isArray(cdata) ? cdata.join("") : (cdata ?? "")}`;
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = decodeValues(obj[k]);
    return out;
  }
  return value;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false, // text stays text; the contract decides which fields are numbers
  trimValues: true,
  // References are decoded below in one pass, so `&amp;#65;` stays the text `&#65;`.
  processEntities: false,
  htmlEntities: false,
  cdataPropName: CDATA,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const builder = new XMLBuilder({ ignoreAttributes: true, format: false, suppressEmptyNode: false });

/** Parses an XML request body into a plain object of the root element's children. */
export function parseXmlBody(text: string): Record<string, unknown> {
  // Entity declarations are the door to expansion bombs and external entities: none is accepted.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new XmlError("DOCTYPE and entity declarations are not accepted");
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new XmlError(`malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = parser.parse(text) as Record<string, unknown>;
  const roots = Object.keys(doc);
  if (roots.length !== 1) throw new XmlError("expected one root element");
  const root = doc[roots[0]];
  if (root === "" || root === undefined || root === null) return {};
  if (typeof root !== "object" || Array.isArray(root) || TEXT in root || CDATA in root)
    throw new XmlError("the root element must hold field elements");
  return decodeValues(root) as Record<string, unknown>;
}

function toXmlValue(value: unknown): unknown {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(toXmlValue);
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = toXmlValue(v);
    return out;
  }
  return value;
}

/** Serialises a response body under `rootName`; a top-level array repeats `itemName`. */
export function toXml(rootName: string, body: unknown, itemName = "Item"): string {
  let inner: unknown;
  if (Array.isArray(body)) inner = { [itemName]: body.map(toXmlValue) };
  else if (body !== null && typeof body === "object") inner = toXmlValue(body);
  else inner = body ?? "";
  return `<?xml version="1.0" encoding="utf-8"?>${builder.build({ [rootName]: inner })}`;
}

/** Parses an XML response the way clients read it: text values, arrays where elements repeat. */
export function parseXmlResponse(text: string): unknown {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XmlError("DOCTYPE is not accepted");
  const doc = decodeValues(parser.parse(text)) as Record<string, unknown>;
  const roots = Object.keys(doc);
  return roots.length === 1 ? doc[roots[0]] : doc;
}
