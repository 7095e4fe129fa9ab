// The browser's one way to call the dashboard API: same-origin, session cookie, JSON in and out.
// A non-2xx answer becomes an ApiError carrying the status and the body's code and message.
// The answer's type is the route's response schema (lib/dashboard-api/*); the handler checks what
// it sends against that schema outside production, so the browser does not parse it again.
import type * as z from "zod/v4/core";
import type { ApiErrorBody } from "./errors.ts";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: { field: string; message: string }[];

  constructor(
    status: number,
    code: string,
    message: string,
    fields: { field: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }

  /** The session is gone: signing in again is the only fix. */
  get isUnauthenticated(): boolean {
    return this.status === 401;
  }

  get isForbidden(): boolean {
    return this.status === 403;
  }
}

/** What a failed call says to a person: the API's own words, or `fallback` for any other failure. */
export function failureMessage(e: unknown, fallback: string): string {
  return e instanceof ApiError ? e.message : fallback;
}

function isApiErrorBody(x: unknown): x is ApiErrorBody {
  if (!x || typeof x !== "object") return false;
  const e = (x as { error?: unknown }).error;
  return !!e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string";
}

const FALLBACK_MESSAGES: Record<number, string> = {
  401: "Your session has ended. Sign in again.",
  403: "You do not have access to this.",
  404: "Not found.",
  502: "The bank could not be reached. Try again in a moment.",
  503: "The bank is unavailable right now. Try again in a moment.",
  504: "The bank took too long to answer. Try again in a moment.",
};

export async function apiFetch<S extends z.$ZodType>(
  path: string,
  init: RequestInit = {},
): Promise<z.output<S>> {
  return readAnswer<S>(await send(path, init));
}

/** What a GET that names the version it holds answers: the new answer and its version, or no change. */
export type VersionedAnswer<T> =
  | { changed: true; data: T; version: string | null }
  | { changed: false; headers: Headers };

/**
 * A GET polled often, naming the version of the answer it holds (If-None-Match): the server
 * answers 304 without a body when nothing changed (lib/route-kit/route.ts, `version`).
 */
export async function apiFetchIfChanged<S extends z.$ZodType>(
  path: string,
  version: string | null,
  init: RequestInit = {},
): Promise<VersionedAnswer<z.output<S>>> {
  const res = await send(
    path,
    version ? { ...init, headers: { ...(init.headers ?? {}), "If-None-Match": version } } : init,
  );
  if (res.status === 304) return { changed: false, headers: res.headers };
  return { changed: true, data: await readAnswer<S>(res), version: res.headers.get("ETag") };
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, {
      ...init,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(init.headers ?? {}) },
    });
  } catch {
    throw new ApiError(
      0,
      "network",
      "The dashboard could not be reached. Check your connection and try again.",
    );
  }
}

async function readAnswer<S extends z.$ZodType>(res: Response): Promise<z.output<S>> {
  const text = await res.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!res.ok) {
    if (isApiErrorBody(body)) {
      throw new ApiError(res.status, body.error.code, body.error.message, body.error.fields ?? []);
    }
    throw new ApiError(
      res.status,
      res.status === 401 ? "unauthenticated" : "http_error",
      FALLBACK_MESSAGES[res.status] ?? `The request failed (HTTP ${res.status}).`,
    );
  }
  return body as z.output<S>;
}

/** A JSON body sent with `method`; the answer as apiFetch gives it. */
export function sendJson<S extends z.$ZodType>(
  method: "POST" | "PUT" | "DELETE",
  path: string,
  body: unknown,
): Promise<z.output<S>> {
  return apiFetch<S>(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}
