// Turning a decoded body or query into a validated request: names matched case-insensitively
// (docs/decisions.md: a production client sends camelCase against PascalCase documentation),
// null and empty values read as "not given", numbers judged by their text, XML text turned into
// numbers where the contract says number, then the zod schema.
import { z } from "zod";
import { type FieldError, issuesToFieldErrors } from "./errors.ts";
import { isNumericSchema, numberTextProblem } from "./fields.ts";
import { jsonNumberText } from "./json-body.ts";

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

type Shape = Record<string, z.ZodType>;

function shapeOf(schema: z.ZodType): Shape | null {
  if (schema instanceof z.ZodObject) return schema.shape as Shape;
  if (schema instanceof z.ZodPipe) return shapeOf(schema.in as z.ZodType);
  return null;
}

const keyMaps = new WeakMap<z.ZodType, Map<string, string>>();

function keyMap(schema: z.ZodType): Map<string, string> {
  let map = keyMaps.get(schema);
  if (!map) {
    map = new Map(Object.keys(shapeOf(schema) ?? {}).map((k) => [k.toLowerCase(), k]));
    keyMaps.set(schema, map);
  }
  return map;
}

/** A value that means "not given" (Jackson writes null for every unset field). */
const isAbsent = (v: unknown) => v === null || v === "";

interface Fields {
  data: Record<string, unknown>;
  /** The name each wire name arrived under. */
  written: Map<string, string>;
  /** Wire names given null or empty: "not given", and named "is required" if the schema needs them. */
  absent: Set<string>;
  errors: FieldError[];
}

/**
 * Maps input names onto the schema's wire names. A name given twice in different cases is
 * ambiguous (which one wins would depend on the order), so it is an error naming the field;
 * null and empty values are dropped, as if the field had not been sent.
 */
function readFields(schema: z.ZodType, input: Record<string, unknown>): Fields {
  const map = keyMap(schema);
  const out: Fields = { data: {}, written: new Map(), absent: new Set(), errors: [] };
  for (const [k, v] of Object.entries(input)) {
    const canonical = map.get(k.toLowerCase());
    if (canonical === undefined) continue;
    if (out.written.has(canonical)) {
      out.errors.push({ field: canonical, message: "is given more than once (names differ only in case)" });
      continue;
    }
    out.written.set(canonical, k);
    if (isAbsent(v)) out.absent.add(canonical);
    else out.data[canonical] = v;
  }
  return out;
}

/** XML carries text: convert to numbers exactly where the contract expects a number. */
function coerceXmlNumbers(schema: z.ZodType, input: Record<string, unknown>): Record<string, unknown> {
  const shape = shapeOf(schema);
  if (!shape) return input;
  const out = { ...input };
  for (const [k, v] of Object.entries(out)) {
    const field = shape[k];
    if (field && typeof v === "string" && isNumericSchema(field)) {
      const t = v.trim();
      if (/^-?\d+(\.\d+)?$/.test(t)) out[k] = Number(t);
    }
  }
  return out;
}

export function parseRequest<S extends z.ZodType>(
  schema: S,
  input: unknown,
  opts: { xml?: boolean } = {},
): Parsed<z.output<S>> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { ok: false, errors: [{ field: "body", message: "must be an object" }] };
  }
  const fields = readFields(schema, input as Record<string, unknown>);
  const errors = [
    ...fields.errors,
    ...numberTextErrors(schema, input as Record<string, unknown>, fields, opts),
  ];
  let data = fields.data;
  if (opts.xml) data = coerceXmlNumbers(schema, data);
  const r = schema.safeParse(data);
  if (r.success && !errors.length) return { ok: true, value: r.data };
  const named = new Set(errors.map((e) => e.field));
  if (!r.success) {
    for (const issue of r.error.issues) {
      const [e] = issuesToFieldErrors([issue]);
      if (named.has(e.field)) continue;
      named.add(e.field);
      // A required field left out, or sent as null or empty, is named as missing, not as of the wrong type.
      const missing = issue.code === "invalid_type" && issue.path.length === 1 && !(e.field in data);
      errors.push(missing ? { ...e, message: "is required" } : e);
    }
  }
  return { ok: false, errors };
}

/** Numbers judged by their text: a JSON number's as written, an XML element's text. */
function numberTextErrors(
  schema: z.ZodType,
  input: Record<string, unknown>,
  fields: Fields,
  opts: { xml?: boolean },
): FieldError[] {
  const shape = shapeOf(schema);
  if (!shape) return [];
  const errors: FieldError[] = [];
  for (const [field, name] of fields.written) {
    const value = fields.data[field];
    if (opts.xml && Array.isArray(value)) {
      errors.push({ field, message: "appears more than once" });
      continue;
    }
    const text = opts.xml ? (typeof value === "string" ? value : undefined) : jsonNumberText(input, name);
    const problem = text === undefined ? null : numberTextProblem(shape[field], text);
    if (problem) errors.push({ field, message: problem });
  }
  return errors;
}

/**
 * Query strings: names matched case-insensitively; a name without a value (`?sequenceNumber&...`)
 * or with an empty one is "not given"; a name given twice is ambiguous, so a 400 naming it.
 */
export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): Parsed<z.output<S>> {
  const obj: Record<string, unknown> = {};
  const repeated: FieldError[] = [];
  const map = keyMap(schema);
  for (const [k, v] of params) {
    if (Object.hasOwn(obj, k)) {
      const field = map.get(k.toLowerCase());
      if (field && !repeated.some((e) => e.field === field))
        repeated.push({ field, message: "appears more than once" });
    } else obj[k] = v;
  }
  const r = parseRequest(schema, obj);
  if (!repeated.length) return r;
  const others = r.ok ? [] : r.errors.filter((e) => !repeated.some((x) => x.field === e.field));
  return { ok: false, errors: [...repeated, ...others] };
}
