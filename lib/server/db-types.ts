// How both programs read PostgreSQL's values, the same on PGlite and on node-postgres, set on
// each connection and never on pg's process-wide parsers: a program that changed those would
// change what every other connection in its process reads (the bank and the dashboard share a
// process in tests). The row types of raw SQL (`SqlRow`) rely on this file.
import pg from "pg";

type Oid = Parameters<typeof pg.types.getTypeParser>[0];
const INT8 = 20;
const DATE = 1082;
// Array types are not in pg's list of type ids, but its parsers know them.
const INT8_ARRAY = 1016 as Oid;

/**
 * int8 (bigint and bigserial columns, count(*)) as a JS number: cents, sequence numbers and
 * counts, all far below 2^53. A value past Number.MAX_SAFE_INTEGER throws rather than rounding,
 * since money must be exact (PGlite's own default would hand back a BigInt, pg's a string).
 */
export function readInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${text} is beyond the exact range of a number`);
  return n;
}

/**
 * A date (a business day) as PostgreSQL writes it, YYYY-MM-DD: pg would make it a Date at local
 * midnight and PGlite one at UTC midnight, two different instants for one day.
 */
const readDate = (text: string) => text;

type Nested = string | null | Nested[];
const mapInt8 = (v: Nested): unknown => (v === null ? null : Array.isArray(v) ? v.map(mapInt8) : readInt8(v));

/** node-postgres: a Pool's or Client's `types`, pg's defaults for every other type. */
export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (format !== "binary" && oid === INT8) return readInt8;
    if (format !== "binary" && oid === DATE) return readDate;
    if (format !== "binary" && oid === INT8_ARRAY)
      return (text: string) => mapInt8(pg.types.getTypeParser(INT8_ARRAY, "text")(text) as Nested);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** PGlite: its `parsers` option (PGlite derives each array type's parser from its element's). */
export const PGLITE_PARSERS: Record<number, (text: string) => unknown> = {
  [INT8]: readInt8,
  [DATE]: readDate,
};
