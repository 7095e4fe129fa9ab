// A person's browser over plain HTTP: next-auth's cookies kept between requests, and sign-in the way
// the sign-in form does it (signInAttempt, live.ts). `request` is where every answer passes, so a
// test can look at them all.
import { signInAttempt } from "./live.ts";

export class CookieBrowser {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  /** The Cookie header this browser sends. */
  cookie(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async fetch(p: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("cookie", this.cookie());
    const res = await fetch(new URL(p, this.base), { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }

  /** One request, read to the end. */
  async request(p: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
    const res = await this.fetch(p, init);
    return { status: res.status, text: await res.text() };
  }

  /** Signs in through next-auth: the error it names (`invalid`, `locked:30`, …), or null when signed in. */
  async signIn(email: string, password: string, totp = ""): Promise<string | null> {
    const send = (p: string, init?: RequestInit) => this.request(p, init);
    return (await signInAttempt(this.base, email, password, { totp, send })).error;
  }
}
