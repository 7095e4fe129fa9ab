// The dashboard's own ids (drafts, series, sweeps, users, changes, payees, tokens…): UUIDs, one
// pattern for every route, store and form. An id that is not one is answered without a query, so
// a path like `/api/schedules/------------------------------------` is a 404, never a database
// error. No zod: the sending-money forms' first load reads it.

export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a dashboard id (a UUID in its 8-4-4-4-12 form). */
export const isId = (s: unknown): s is string => typeof s === "string" && ID_PATTERN.test(s);
