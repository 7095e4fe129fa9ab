// Calls a dashboard route handler as Next calls it: a NextRequest carrying a real signed
// next-auth session cookie, against whatever database and bank client the test has set.
import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";

export interface SessionSubject {
  id: string;
  email: string;
  name: string;
}

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A session cookie for the user, signed with the secret the dashboard reads (NEXTAUTH_SECRET). */
export async function cookieFor(
  user: SessionSubject,
  claims: Partial<{ signedInAt: number; lastActivity: number }> = {},
  secret = process.env.NEXTAUTH_SECRET as string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const token = await encode({
    secret,
    token: {
      sub: user.id,
      email: user.email,
      name: user.name,
      signedInAt: now,
      lastActivity: now,
      ...claims,
    },
  });
  return `next-auth.session-token=${token}`;
}

/** Invokes the module's handler for the method; the answer's status and parsed JSON body. */
export async function invoke(
  load: () => Promise<unknown>,
  method: string,
  url: string,
  o: {
    cookie?: string;
    body?: unknown;
    params?: Record<string, unknown>;
    headers?: Record<string, string>;
  } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read whichever answer a route gives
): Promise<{ status: number; json: any; text: string; headers: Headers }> {
  const m = (await load()) as Record<string, Handler>;
  const handler = m[method];
  if (!handler) throw new Error(`${method} ${url} is not exported`);
  const headers: Record<string, string> = { ...o.headers };
  if (o.cookie) headers.cookie = o.cookie;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const req = new NextRequest(new URL(url, process.env.NEXTAUTH_URL ?? "http://127.0.0.1:3999"), {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const res = await handler(req, { params: Promise.resolve((o.params ?? {}) as Record<string, string>) });
  const text = await res.text();
  // A download (text/csv) has no JSON to read: its text is the answer.
  const isJson = !res.headers.get("content-type") || res.headers.get("content-type")?.includes("json");
  return {
    status: res.status,
    json: text && isJson ? JSON.parse(text) : undefined,
    text,
    headers: res.headers,
  };
}
