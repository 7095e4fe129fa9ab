// The XML codec: the specification offers every body as JSON and as XML with the same names.
// Requests: the root element's children are the fields; repeated elements become arrays.
// Responses: objects become elements, arrays repeat their element name.
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";

export class XmlError extends Error {}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false, // text stays text; the contract decides which fields are numbers
  trimValues: true,
  processEntities: true, // only the five predefined entities: DOCTYPE is refused below
  htmlEntities: false,
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
  if (typeof root !== "object" || Array.isArray(root))
    throw new XmlError("the root element must hold field elements");
  return root as Record<string, unknown>;
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
  const doc = parser.parse(text) as Record<string, unknown>;
  const roots = Object.keys(doc);
  return roots.length === 1 ? doc[roots[0]] : doc;
}
