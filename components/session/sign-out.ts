// Signing out through next-auth's own endpoints, without its browser library: the sign-out
// button and the idle-session guard share this.

export async function csrfToken(): Promise<string> {
  const r = await fetch("/api/auth/csrf", { cache: "no-store" });
  return ((await r.json()) as { csrfToken: string }).csrfToken;
}

/** Ends the session on the server, then goes to sign-in (saying why when the session went idle). */
export async function signOut(reason?: "idle"): Promise<void> {
  try {
    await fetch("/api/auth/signout", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await csrfToken(), json: "true" }),
    });
  } finally {
    window.location.assign(reason ? `/sign-in?reason=${reason}` : "/sign-in");
  }
}
