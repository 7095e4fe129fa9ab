// Sessions and credentials as people use them: signing in and out through the dashboard's own
// endpoints, the session a call carries, following one's own e-mailed link, removing a lost second
// factor, and the rogue administrator's attempts to hold someone else's session.
import { generate } from "otplib";
import { signInAttempt } from "../tests/helpers/live.ts";
import { secretsIn } from "./auditor.ts";
import { type Call, ok } from "./history.ts";
import { LINK_TOKEN } from "./model.ts";
import type { Person } from "./schedule.ts";
import type { World } from "./world.ts";

/** Signs in through next-auth's credentials endpoint, as the sign-in form does. */
export async function signIn(world: World, op: number, who: Person, inst: number): Promise<boolean> {
  const p = world.people[who];
  p.ownSignIns++;
  const totp = p.totpSecret ? await generate({ secret: p.totpSecret }) : undefined;
  const cookie = await credentialsSignIn(world, op, who, p.email, p.password, inst, undefined, totp);
  if (!cookie) return false;
  p.cookie = cookie;
  p.temporary = p.resetPending;
  return true;
}

/**
 * One sign-in through the form's endpoint by `actor` with these credentials: the session's
 * cookies, or null when no session came back. `session` labels it in the history when the
 * credentials are not the actor's own.
 */
export async function credentialsSignIn(
  world: World,
  op: number,
  actor: Person,
  email: string,
  password: string,
  inst: number,
  session?: string,
  totp?: string,
): Promise<string | null> {
  let signedIn = false;
  try {
    const { cookie } = await signInAttempt(world.cluster.dashUrl(inst), email, password, {
      ...(totp ? { totp } : {}),
      timeoutMs: 30_000,
      onCredentials: (a) => {
        signedIn = a.signedIn;
        world.history.calls.push({
          op,
          actor,
          ...(session ? { session } : {}),
          target: `dashboard${inst}`,
          method: "POST",
          path: "/api/auth/callback/credentials",
          body: { email },
          status: a.status,
          answer: { signedIn },
          t0: a.t0,
          t1: a.t1,
        });
      },
    });
    return signedIn ? cookie : null;
  } catch {
    return null;
  }
}

export async function signOut(world: World, op: number, who: Person, inst: number): Promise<void> {
  const p = world.people[who];
  if (!p.cookie) return;
  const base = world.cluster.dashUrl(inst);
  try {
    const csrfRes = await fetch(`${base}/api/auth/csrf`, { headers: { cookie: p.cookie } });
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const csrfCookie = csrfRes.headers
      .getSetCookie()
      .map((h) => h.split(";")[0])
      .join("; ");
    const t0 = Date.now();
    const res = await fetch(`${base}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: [p.cookie, csrfCookie].filter(Boolean).join("; "),
        origin: base,
      },
      body: new URLSearchParams({ csrfToken, json: "true" }),
    });
    await res.text();
    world.history.calls.push({
      op,
      actor: who,
      target: `dashboard${inst}`,
      method: "POST",
      path: "/api/auth/signout",
      status: res.status,
      t0,
      t1: Date.now(),
    });
    // Told the revoke could not be recorded: still signed in, as the page says.
    if (res.status === 503) return;
  } catch {
    // No answer (the instance was down or died mid-request): the page said nothing of signing
    // out, so the person does not believe they did.
    return;
  }
  // Any other answer, and the person believes they signed out: that session must not act again.
  p.revoked.push(p.cookie);
  p.cookie = null;
}

export async function session(world: World, op: number, who: Person, inst: number): Promise<string | null> {
  const p = world.people[who];
  if (!p.cookie && !p.disabled) await signIn(world, op, who, inst);
  return p.cookie;
}

/** A reset is in force: every session of the person ended, and a link waits in their mail box. */
export function resetTookEffect(world: World, target: Person) {
  const t = world.people[target];
  if (t.cookie) t.revoked.push(t.cookie);
  t.cookie = null;
  t.temporary = false;
  t.resetPending = true;
  t.credentialsAt = Date.now();
}

/**
 * The person opens the newest two-step removal link in their own mail box and proves their
 * password: the device is removed and every session of theirs ends (the one in hand must never
 * act again), and their credentials changed now.
 */
export async function removeFactorByLink(world: World, who: Person, inst: number, op: number) {
  const p = world.people[who];
  if (!p.totpSecret) return;
  const mail = await world.cluster.dashQuery<{ text: string }>(
    `SELECT text FROM mail_outbox WHERE "to" = $1 AND kind = 'credential_link.totp_removal' ORDER BY created_at DESC LIMIT 1`,
    [p.email],
  );
  const token = /\/account-link#([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "")?.[1];
  if (!token) return;
  const t0 = Date.now();
  const res = await fetch(`${world.cluster.dashUrl(inst)}/api/account-link/use`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, currentPassword: p.password }),
  }).catch(() => null);
  await res?.arrayBuffer();
  world.history.calls.push({
    op,
    actor: who,
    target: `dashboard${inst}`,
    method: "POST",
    path: "/api/account-link/use",
    status: res?.status ?? "aborted",
    t0,
    t1: Date.now(),
  });
  // No answer: the device may be gone and the sessions ended, or not; the session in hand is
  // given up all the same.
  if (res && res.status !== 200) return;
  if (p.cookie) p.revoked.push(p.cookie);
  p.cookie = null;
  if (res) {
    p.totpSecret = null;
    p.credentialsAt = Date.now();
  }
}

/** The person reads their own mail box and chooses a password through the newest link there. */
export async function followOwnLink(world: World, target: Person, purpose: "reset" | "invite", op: number) {
  const t = world.people[target];
  const mail = await world.cluster.dashQuery<{ text: string }>(
    `SELECT text FROM mail_outbox WHERE "to" = $1 AND kind = $2 ORDER BY created_at DESC LIMIT 1`,
    [t.email, `credential_link.${purpose}`],
  );
  const token = /\/account-link#([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "")?.[1];
  if (!token) {
    world.violation("control.one-admin", op, `the ${purpose} of ${target} e-mailed them no link`);
    return;
  }
  const next = `Sim-${target}-password-${String(++world.pwCounter).padStart(4, "0")}l`;
  const res = await fetch(`${world.cluster.dashUrl(0)}/api/account-link/use`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, newPassword: next, confirmPassword: next }),
  }).catch(() => null);
  await res?.arrayBuffer();
  if (res?.status === 200) {
    t.password = next;
    t.resetPending = false;
    t.passwordChanges++;
    t.credentialsAt = Date.now();
  }
}

/**
 * An admin tries every way to a session as `target`: a password or link in the answer they got,
 * a link in their own mail box, the passwords they know (`known`). Any session obtained is kept
 * for a `borrowedRelease`, and is a violation: only the person may hold a session of theirs.
 */
export async function borrowAttempts(
  world: World,
  op: number,
  who: Person,
  target: Person,
  inst: number,
  answer: Call,
  known: string[],
) {
  const t = world.people[target];
  const passwords = new Set(known);
  const tokens = new Set<string>();
  const given = secretsIn(answer.answer, answer.text);
  if (given.length)
    world.violation(
      "credential.through-admin",
      op,
      `${who} was answered ${answer.status} to ${answer.method} ${answer.path} with a password or link of ${target}'s`,
    );
  for (const g of given) {
    if (/^[A-Za-z0-9_-]{20,100}$/.test(g)) tokens.add(g);
    passwords.add(g);
  }
  const mine = await world.cluster.dashQuery<{ text: string }>(
    `SELECT text FROM mail_outbox WHERE "to" = $1`,
    [world.people[who].email],
  );
  for (const m of mine) for (const x of m.text.matchAll(LINK_TOKEN)) tokens.add(x[1]);
  const base = world.cluster.dashUrl(inst);
  for (const token of tokens) {
    const seen = await world.history.call(
      {
        op,
        actor: who,
        session: `as ${target}`,
        target: `dashboard${inst}`,
        method: "POST",
        path: "/api/account-link",
        body: { token },
      },
      { url: `${base}/api/account-link`, headers: {} },
    );
    if (!ok(seen) || (seen.answer as { email?: string } | undefined)?.email !== t.email) continue;
    world.violation("credential.through-admin", op, `${who} holds a one-time link to ${target}'s account`);
    // The admin chooses the person's password through it.
    const chosen = `Rogue-${who}-${target}-${op}-password`;
    const used = await world.history.call(
      {
        op,
        actor: who,
        session: `as ${target}`,
        target: `dashboard${inst}`,
        method: "POST",
        path: "/api/account-link/use",
        body: { token, newPassword: chosen, confirmPassword: chosen },
      },
      { url: `${base}/api/account-link/use`, headers: {} },
    );
    if (ok(used)) passwords.add(chosen);
  }
  for (const password of passwords) {
    const cookie = await credentialsSignIn(world, op, who, t.email, password, inst, `as ${target}`);
    if (!cookie) continue;
    world.violation(
      "session.own-person",
      op,
      `${who} signed in as ${target} (${t.role}) and holds a session of theirs`,
    );
    world.borrowed.set(`${who}>${target}`, cookie);
  }
}

/**
 * A reset took effect: every session ended, and the person chooses a new password through the
 * one-time link e-mailed to them (read from the dashboard's outbox, as their mail box would).
 */
export async function resetDone(world: World, target: Person, op: number) {
  resetTookEffect(world, target);
  await followOwnLink(world, target, "reset", op);
}
