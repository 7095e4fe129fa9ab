// Row types of raw SQL from the Drizzle schema. Statements on the hot paths keep their SQL, and
// their rows carry the columns' SQL names; every column's SQL name is its schema name in
// snake_case (customerId is customer_id), so a table's row type maps to those names with the
// types the schema declares, and no row type is a hand-typed copy. The types hold because every
// connection reads values the same way on both drivers (lib/server/db-types.ts): a bigint is a
// number, a timestamptz a Date, a jsonb its parsed value.
import type { InferSelectModel, Table } from "drizzle-orm";

type Snake<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${Snake<Rest>}`
  : S;

/** A row of `T` as raw SQL returns it: each column under its SQL name. Pick what a statement selects. */
export type SqlRow<T extends Table> = {
  [K in keyof InferSelectModel<T> & string as Snake<K>]: InferSelectModel<T>[K];
};

/** The same row with some columns read as text (a `::text` cast, or a timestamp that came through JSON). */
export type AsText<R, K extends keyof R> = Omit<R, K> & {
  [P in K]: null extends R[P] ? string | null : string;
};
