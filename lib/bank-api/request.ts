// Turning a decoded body or query into a validated request: names matched case-insensitively
// (docs/decisions.md: a production client sends camelCase against PascalCase documentation),
// XML text turned into numbers where the contract says number, then the zod schema.
import type { z } from "zod";
import { type FieldError, issuesToFieldErrors } from "./errors.ts";
import { isNumericSchema } from "./fields.ts";

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

type Shape = Record<string, z.ZodType>;

function shapeOf(schema: z.ZodType): Shape | null {
  const def = (schema as unknown as { _zod: { def: { type: string; shape?: Shape; in?: z.ZodType } } })._zod
    .def;
  if (def.type === "object" && def.shape) return def.shape;
  if (def.type === "pipe" && def.in) return shapeOf(def.in);
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

/** Renames input keys to the schema's wire names, ignoring case; unknown names are dropped. */
export function normalizeKeys(schema: z.ZodType, input: Record<string, unknown>): Record<string, unknown> {
  const map = keyMap(schema);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const canonical = map.get(k.toLowerCase());
    if (canonical !== undefined && !(canonical in out && k !== canonical)) out[canonical] = v;
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
  let data = normalizeKeys(schema, input as Record<string, unknown>);
  if (opts.xml) data = coerceXmlNumbers(schema, data);
  const r = schema.safeParse(data);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, errors: issuesToFieldErrors(r.error.issues) };
}

/** Query strings: first value of each name, names matched case-insensitively. */
export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): Parsed<z.output<S>> {
  const obj: Record<string, unknown> = {};
  for (const [k, v] of params) if (!(k in obj)) obj[k] = v;
  return parseRequest(schema, obj);
}
