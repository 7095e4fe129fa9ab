// Signing out through next-auth's own endpoints, without its browser library: the sign-out
// button and the idle-session guard share this.

export async function csrfToken(): Promise<string> {
  const r = await fetch("/api/auth/csrf", { cache: "no-store" });
  return ((await r.json()) as { csrfToken: string }).csrfToken;
}

/** Why a sign-out did not end the session, in the server's words when it gave some. */
export class SignOutFailed extends Error {}

const NOT_SIGNED_OUT =
  "You are still signed in: the sign-out did not reach the server. Try again; until it works, this session stays open.";

/** Asks the server to end the session; resolves once it has, else throws SignOutFailed. */
async function endSession(): Promise<void> {
  let r: Response;
  try {
    r = await fetch("/api/auth/signout", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await csrfToken(), json: "true" }),
    });
  } catch {
    throw new SignOutFailed(NOT_SIGNED_OUT);
  }
  const body = (await r.json().catch(() => null)) as { url?: string; error?: { message?: string } } | null;
  // next-auth answers an accepted sign-out with the address to go to.
  if (r.ok && typeof body?.url === "string") return;
  throw new SignOutFailed(body?.error?.message ?? NOT_SIGNED_OUT);
}

/**
 * Ends the session on the server, then goes to sign-in (saying why when the session went idle).
 * A sign-out the server could not record throws SignOutFailed and stays on the page, so its
 * owner knows the session is still open; an idle one goes to sign-in all the same (no one is
 * there to read it, and the server ends an idle session itself).
 */
export async function signOut(reason?: "idle"): Promise<void> {
  try {
    await endSession();
  } catch (e) {
    if (!reason) throw e;
  }
  window.location.assign(reason ? `/sign-in?reason=${reason}` : "/sign-in");
}
