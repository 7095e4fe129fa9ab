// The actors: people of the dashboard (through its HTTP API, with real sessions), the integrating
// client of the bank (/v2 with its own key and Idempotency-Key reuse) and the outside world
// (/sandbox: deposits, incoming wires, outages, the clock), plus the faults. Each operation of the
// schedule runs here; what was asked and answered goes to the history, and the little the
// checker must know to judge it (who may act, which limits are in force) is kept in the model.
import { generate } from "otplib";
import { isBusinessDay } from "../lib/bank-api/business-days.ts";
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import { openDashboardDb } from "../lib/db/client.ts";
import { maskAccountNumber } from "../lib/format/money.ts";
import { isLiveSeries, OPEN_OCCURRENCE_STATUSES, sqlWords } from "../lib/schedules/states.ts";
import { type Cluster, SANDBOX_KEY } from "./cluster.ts";
import { type Call, definite, History, ok } from "./history.ts";
import {
  type Account,
  ALERT_ACCOUNT,
  ALERT_LINES,
  CLIENT_ACCOUNTS,
  DASH_ACCOUNTS,
  DEFAULT_DUAL_APPROVAL,
  DEFAULT_RELEASE_DUAL,
  DEFAULT_SEN_THRESHOLD,
  INITIAL_ROLES,
  INVITEES,
  OPENING_CENTS,
  type Op,
  PEOPLE,
  type Person,
  type SeriesPattern,
  SWEEP_ACCOUNTS,
  SWEEP_OPENING_CENTS,
} from "./schedule.ts";

export interface Violation {
  invariant: string;
  /** The operation at which the checker saw it. */
  op: number;
  message: string;
  /** The operation that broke it, when the history tells (the first release of a draft paid twice). */
  cause?: number;
}

type Role = "viewer" | "preparer" | "approver" | "admin";

interface PersonState {
  id: string;
  email: string;
  password: string;
  role: Role;
  disabled: boolean;
  /** An admin reset the password: the session signed in with the temporary one may only change it. */
  resetPending: boolean;
  cookie: string | null;
  /** The session in hand was signed in with a temporary password. */
  temporary: boolean;
  /** Cookies of sessions that were signed out or ended by a reset: they must never act again. */
  revoked: string[];
  passwordChanges: number;
  /**
   * When the model last saw this person's credentials change (invited, reset, a password chosen
   * through a link): within a day of it their votes on money must not count. Null: never in this run.
   */
  credentialsAt: number | null;
  /** Sign-ins the person themselves attempted: every session of theirs must come from one of them. */
  ownSignIns: number;
  /** The secret of the person's two-step sign-in device, once they turned it on; null when off. */
  totpSecret?: string | null;
}

interface DraftState {
  /** For a wire filled from a saved beneficiary: which, and the account it pays. */
  payee?: { n: number; account: string };
  id: string;
  kind: "wire" | "sen";
  from: string;
  cents: number;
  preparedBy: Person;
  /** Approvers whose release of it was answered 2xx, by sessions that could act. */
  approvers: Set<Person>;
  /**
   * The most votes that could count at once: at each release sent, its voters so far and its
   * sender, judged as they stood then. The release that decides is one of those.
   */
  bestEligible: number;
  /** Approvers whose release got no answer: the product may have recorded their vote. */
  unanswered: Set<Person>;
}

interface WireState {
  paymentId: string;
  account: string;
  cents: number;
  timestamp: string;
  /** People whose approval of it was answered 2xx, and the most of them that could count at once. */
  votes: Set<Person>;
  bestEligible: number;
  unanswered: Set<Person>;
}

interface ClockSeen {
  bank: number;
  t0: number;
  t1: number;
  bankMs: number;
}

const PERMS: Record<string, Role[]> = {
  transfer: ["preparer", "approver", "admin"],
  release: ["approver", "admin"],
  act: ["approver", "admin"],
  admin: ["admin"],
};

const dollars = (cents: number) => (cents / 100).toFixed(2);
/** What a role may do that moves, approves or administers money: granting any of it weakens a control. */
const POWERS: Record<Role, string[]> = {
  viewer: [],
  preparer: ["transfer"],
  approver: ["transfer", "release"],
  admin: ["transfer", "release", "admin"],
};
const grants = (from: Role, to: Role) => POWERS[to].some((x) => !POWERS[from].includes(x));
/** A 202 with `pending`: the change waits for a second admin. */
const pendingOf = (c: Call) =>
  ((c.answer as { pending?: unknown[] } | undefined)?.pending?.length ?? 0) > 0 || c.status === 202;
const tagOf = (draftId: string) => `S${draftId.replace(/-/g, "")}`;
/** A vote on money by someone whose credentials changed within this long does not count. */
const CREDENTIALS_EMBARGO_MS = 24 * 60 * 60 * 1000;
/** One-time links in a mail's text. */
const LINK_TOKEN = /\/account-link#([A-Za-z0-9_-]+)/g;

/** A series as the simulator set it up, and what people did to it since (the checker judges by it). */
export interface SeriesModel {
  id: string;
  version: number;
  rail: "sen" | "wire";
  from: Account;
  to: Account;
  /** Who it pays, as the bank names it: the account number a SEN transfer credits, or a wire's beneficiary account. */
  payee: string;
  cents: number;
  /**
   * The terms (`termsKey`: amount and payee) of every version the product called approved in an
   * answer: an occurrence paid with other terms went without the approval of what it paid.
   */
  approvedTerms: Set<string>;
  /** The schedule form's key, sent again with each change of it. */
  key: string;
  pattern: SeriesPattern;
  /** The first day of its rule, as the product stored it (the bank's business date when it was set up). */
  startsOn: string;
  /** Its status after each change, with the bank's business date of the change. */
  changes: { day: string; status: string }[];
  /** Nominal days a person skipped (the product said so). */
  skipped: Set<string>;
}

/** A series as the product answers it (the fields the simulator reads). */
interface SeriesSeen {
  id: string;
  name: string;
  version: number;
  status: string;
  amountCents: number;
  approved: boolean;
  approvals: unknown[];
  schedule: { startsOn: string };
}

/** A series version's terms as the checker compares them with what the bank paid. */
export const termsKey = (cents: number, payee: string) => `${cents} to ${payee}`;

/** A sweep as the simulator set it up. */
export interface SweepModel {
  id: string;
  version: number;
  account: Account;
  funding: Account;
  lowCents: number;
  highCents: number;
  /** As the product last answered. */
  approved: boolean;
  status: string;
}

/** The kept and funding accounts' available balances at the bank once a business day's runs are over. */
export interface SweepLook {
  op: number;
  day: string;
  sweep: SweepModel;
  keptCents: number;
  fundingCents: number;
  /** The status of the day's `run` slot in `sweep_moves`, or null when the sweep did not run. */
  ran: string | null;
  /** Seconds waited for the runs to settle (the limit when they did not). */
  waited: number;
}

/**
 * Whether a sweep's account is outside its band although it need not be: above it (the excess can
 * always go back), or below it while the funding account had what it takes to reach the low.
 */
export const outOfBand = (l: Pick<SweepLook, "keptCents" | "fundingCents" | "sweep">) =>
  l.keptCents > l.sweep.highCents ||
  (l.keptCents < l.sweep.lowCents && l.fundingCents >= l.sweep.lowCents - l.keptCents);

/**
 * How long the runners have to finish a business day's occurrences and sweeps (they take about a
 * second). `SIM_RUNS_SETTLE_SECONDS` shortens it for a mutant's seed, whose sweep stays outside its
 * band every day and would wait out the whole limit on each.
 */
const RUNS_SETTLE_MS = (Number(process.env.SIM_RUNS_SETTLE_SECONDS) || 30) * 1000;

export class World {
  readonly history = new History();
  readonly violations: Violation[] = [];
  readonly people = {} as Record<Person, PersonState>;
  readonly accounts = {} as Record<Account, string>;
  clientKey = "";
  private clientToken: string | null = null;
  readonly drafts = new Map<number, DraftState>();
  readonly wires = new Map<number, WireState>();
  readonly sinkHooks = new Set<string>();
  /** Saved beneficiaries the schedule names, by their number. */
  readonly payees = new Map<number, string>();
  /** Per payee: the account a second person approved (or none), and the one waiting for approval. */
  readonly payeeApproved = new Map<number, string>();
  readonly payeePending = new Map<number, string>();
  /** Every account the simulator asked for each payee, whatever the answer (one may be lost). */
  readonly payeeProposed = new Map<number, Set<string>>();
  /** Limits in force as the model says: lowered by one admin at once, raised only with a second. */
  senThreshold = DEFAULT_SEN_THRESHOLD;
  dualApproval = DEFAULT_DUAL_APPROVAL;
  /** Incoming wires sent to the bank, with the two-approver limit in force at that moment. */
  readonly decidedUnder = new Map<string, number>();
  /** A draft above this needs two approvers besides its preparer. */
  releaseDual = DEFAULT_RELEASE_DUAL;
  /** Deposits the bank confirmed, and those whose answer never came. */
  depositsAck = 0;
  depositsMaybe = 0;
  readonly clock: ClockSeen[] = [];
  /** Outbox position when the alert rule was saved: notifications after it count for alerts. */
  alertFromOutboxId = 0;
  alertRuleSaved = false;
  /** Idempotent answers per Idempotency-Key of the integrating client. */
  readonly v2Answers = new Map<string, { body: unknown; first?: string; op: number }>();
  readonly streams: AbortController[] = [];
  /** Sessions someone obtained as another person (`admin>target`): none may ever exist. */
  readonly borrowed = new Map<string, string>();
  kills = 0;
  private pwCounter = 0;
  /** Schedules and sweeps (runs with `--days`): the series and sweeps of the schedule by number. */
  readonly series = new Map<number, SeriesModel>();
  /** Changes of a series the product answered, by what changed. */
  readonly seriesEdits = { amount: 0, payee: 0, rename: 0 };
  readonly sweeps = new Map<number, SweepModel>();
  readonly sweepLooks: SweepLook[] = [];
  /** The bank's business date as last heard. */
  bankDate = "";

  constructor(
    readonly cluster: Cluster,
    readonly schedule: Op[],
  ) {}

  violation(invariant: string, op: number, message: string, cause?: number) {
    this.violations.push({ invariant, op, message, ...(cause !== undefined ? { cause } : {}) });
  }

  // Set-up ---------------------------------------------------------------------------------

  private async sandbox<T>(
    bank: number,
    method: string,
    path: string,
    body: unknown,
    op = -1,
  ): Promise<Call & { answer: T }> {
    return (await this.history.call(
      { op, actor: "world", target: `bank${bank}`, method, path, body },
      { url: `${this.cluster.bankUrl(bank)}${path}`, headers: { [BANK_HEADERS.sandboxKey]: SANDBOX_KEY } },
    )) as Call & { answer: T };
  }

  async setup(): Promise<void> {
    const c = this.cluster;
    const must = async <T>(p: Promise<Call & { answer: T }>) => {
      const r = await p;
      if (!ok(r)) throw new Error(`set-up: ${r.method} ${r.path} answered ${r.status} ${r.text ?? ""}`);
      return r.answer;
    };
    const dash = await must(
      this.sandbox<{ customerId: number; subscriptionKey: string; webhookSecret: string }>(
        0,
        "POST",
        "/sandbox/customers",
        {
          name: "Northwind Simulation LLC",
        },
      ),
    );
    c.keys = dash;
    const client = await must(
      this.sandbox<{ customerId: number; subscriptionKey: string }>(0, "POST", "/sandbox/customers", {
        name: "Integrator Simulation Inc",
      }),
    );
    this.clientKey = client.subscriptionKey;
    // The kept and funding accounts of the sweeps only when the schedule has schedules and sweeps.
    const withSweeps = this.schedule.some((op) => op.kind === "advance");
    for (const a of [...DASH_ACCOUNTS, ...CLIENT_ACCOUNTS, ...(withSweeps ? SWEEP_ACCOUNTS : [])]) {
      const customerId = a.startsWith("B") ? client.customerId : dash.customerId;
      const opening = a === "K1" || a === "F1" ? SWEEP_OPENING_CENTS[a] : OPENING_CENTS;
      const r = await must(
        this.sandbox<{ accountNumber: string }>(0, "POST", "/sandbox/accounts", {
          customerId,
          type: a === "A0" ? "DDA" : "SEN",
          balance: dollars(opening),
        }),
      );
      this.accounts[a] = r.accountNumber;
      this.depositsAck += opening;
    }
    // The people, written as `npm start` writes its demo users, before any dashboard starts.
    const db = await openDashboardDb(
      c.dashDbUrl ? { url: c.dashDbUrl, poolSize: 2 } : { dataDir: `${c.dir}/dashboard-data` },
    );
    try {
      const { createUser } = await import("../lib/auth/users.ts");
      for (const p of PEOPLE) {
        const password = `Sim-${p}-password-0001`;
        const u = await createUser(db, {
          email: `${p}@sim.example`,
          name: `Sim ${p}`,
          role: INITIAL_ROLES[p],
          password,
        });
        this.people[p] = {
          id: u.id,
          email: u.email,
          password,
          role: INITIAL_ROLES[p],
          disabled: false,
          resetPending: false,
          cookie: null,
          temporary: false,
          revoked: [],
          passwordChanges: 0,
          credentialsAt: null,
          ownSignIns: 0,
        };
      }
    } finally {
      await db.close();
    }
    await c.startDashboards();
  }

  // Sessions -------------------------------------------------------------------------------

  /** Signs in through next-auth's credentials endpoint, as the sign-in form does. */
  private async signIn(op: number, who: Person, inst: number): Promise<boolean> {
    const p = this.people[who];
    p.ownSignIns++;
    const totp = p.totpSecret ? await generate({ secret: p.totpSecret }) : undefined;
    const cookie = await this.credentialsSignIn(op, who, p.email, p.password, inst, undefined, totp);
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
  private async credentialsSignIn(
    op: number,
    actor: Person,
    email: string,
    password: string,
    inst: number,
    session?: string,
    totp?: string,
  ): Promise<string | null> {
    const base = this.cluster.dashUrl(inst);
    const jar = new Map<string, string>();
    const keep = (res: Response) => {
      for (const h of res.headers.getSetCookie()) {
        const [pair] = h.split(";");
        const i = pair.indexOf("=");
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
    };
    try {
      const csrfRes = await fetch(`${base}/api/auth/csrf`, { signal: AbortSignal.timeout(30_000) });
      keep(csrfRes);
      const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const t0 = Date.now();
      const res = await fetch(`${base}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: base },
        body: new URLSearchParams({ csrfToken, email, password, ...(totp ? { totp } : {}), json: "true" }),
        signal: AbortSignal.timeout(30_000),
      });
      keep(res);
      await res.text();
      const signedIn = [...jar.keys()].some((k) => k.endsWith("session-token"));
      this.history.calls.push({
        op,
        actor,
        ...(session ? { session } : {}),
        target: `dashboard${inst}`,
        method: "POST",
        path: "/api/auth/callback/credentials",
        body: { email },
        status: res.status,
        answer: { signedIn },
        t0,
        t1: Date.now(),
      });
      return signedIn ? [...jar].map(([k, v]) => `${k}=${v}`).join("; ") : null;
    } catch {
      return null;
    }
  }

  private async signOut(op: number, who: Person, inst: number): Promise<void> {
    const p = this.people[who];
    if (!p.cookie) return;
    const base = this.cluster.dashUrl(inst);
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
      this.history.calls.push({
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

  /** Why the person's session must be refused a state change now, or null. */
  private mustRefuse(who: Person, need: keyof typeof PERMS): string | null {
    const p = this.people[who];
    if (p.disabled) return "the user is disabled";
    if (p.temporary) return "the session waits for a password change";
    if (!PERMS[need].includes(p.role)) return `the role ${p.role} lacks the permission`;
    return null;
  }

  private async session(op: number, who: Person, inst: number): Promise<string | null> {
    const p = this.people[who];
    if (!p.cookie && !p.disabled) await this.signIn(op, who, inst);
    return p.cookie;
  }

  /** A dashboard call with the person's session; a 2xx on a call that must be refused is a violation. */
  /** An administrator's call from the operation's person and instance. */
  private asAdmin(
    i: number,
    op: { who: Person; inst: number },
    method: string,
    path: string,
    body?: unknown,
  ) {
    return this.dash(i, op.who, op.inst, method, path, body, { need: "admin" });
  }

  /**
   * What a sized transfer asks for: the available balance of its account as the person reads it
   * on the accounts page just before (`all`), or 1 to 100 cents more (`over`); null when the read
   * failed (the person does not send).
   */
  private async sizedFromBalance(
    op: number,
    o: { who: Person; inst: number; from: Account; size?: "all" | "over" },
  ): Promise<number | null> {
    const read = await this.dash(op, o.who, o.inst, "GET", "/api/accounts");
    const accounts = (read.answer as { accounts?: { accountNumber: string; availableCents: number }[] })
      ?.accounts;
    const available = accounts?.find((a) => a.accountNumber === this.accounts[o.from])?.availableCents;
    if (!ok(read) || available === undefined) return null;
    // Which extra is drawn from the operation's place, so a replay asks for the same.
    const extra = o.size === "over" ? 1 + (op % 100) : 0;
    return Math.max(1, available + extra);
  }

  private async dash(
    op: number,
    who: Person,
    inst: number,
    method: string,
    path: string,
    body?: unknown,
    o: { need?: keyof typeof PERMS; abortMs?: number; cookie?: string; sessionLabel?: string } = {},
  ): Promise<Call> {
    const cookie = o.cookie ?? (await this.session(op, who, inst)) ?? "";
    const refuse =
      o.need && !o.cookie ? this.mustRefuse(who, o.need) : o.cookie ? "the session was signed out" : null;
    const call = await this.history.call(
      {
        op,
        actor: who,
        session: o.sessionLabel ?? (this.people[who].temporary ? "temporary" : "normal"),
        target: `dashboard${inst}`,
        method,
        path,
        body,
      },
      { url: `${this.cluster.dashUrl(inst)}${path}`, headers: { cookie }, abortMs: o.abortMs },
    );
    if (refuse && o.need && ok(call)) {
      const inv = refuse.startsWith("the role")
        ? "control.role-in-force"
        : refuse.includes("disabled")
          ? "session.disabled"
          : refuse.includes("password")
            ? "session.reset-pending"
            : "session.signed-out";
      this.violation(inv, op, `${who}: ${method} ${path} answered ${call.status} although ${refuse}`);
    }
    return call;
  }

  // The integrating client -----------------------------------------------------------------

  private tokenRun: Promise<string | null> | null = null;

  /** The client's token: one request for all its callers at once (the bank issues one a second). */
  private v2Token(bank: number, op: number): Promise<string | null> {
    if (this.clientToken) return Promise.resolve(this.clientToken);
    this.tokenRun ??= (async () => {
      try {
        for (let i = 0; i < 20; i++) {
          const call = await this.history.call(
            { op, actor: "client", target: `bank${bank}`, method: "GET", path: "/v2/access/token" },
            {
              url: `${this.cluster.bankUrl(bank)}/v2/access/token`,
              headers: { [BANK_HEADERS.subscriptionKey]: this.clientKey },
            },
          );
          const h = (call as Call & { headers?: Headers }).headers;
          if (call.status === 200 && h?.get("authorization")) {
            this.clientToken = h.get("authorization");
            return this.clientToken;
          }
          await new Promise((r) => setTimeout(r, 1100));
        }
        return null;
      } finally {
        this.tokenRun = null;
      }
    })();
    return this.tokenRun;
  }

  private async v2Transfer(op: number, bank: number, body: unknown, key: string): Promise<Call> {
    for (let attempt = 0; ; attempt++) {
      const token = (await this.v2Token(bank, op)) ?? "";
      const call = await this.history.call(
        { op, actor: "client", target: `bank${bank}`, method: "POST", path: "/v2/account/transfersen", body },
        {
          url: `${this.cluster.bankUrl(bank)}/v2/account/transfersen`,
          headers: {
            [BANK_HEADERS.subscriptionKey]: this.clientKey,
            Authorization: token,
            [BANK_HEADERS.idempotencyKey]: key,
          },
        },
      );
      // An expired token (the sandbox clock moved): one new token, one more try.
      if (call.status === 401 && attempt < 2) {
        if (this.clientToken === token) this.clientToken = null;
        continue;
      }
      return call;
    }
  }

  /** Every 200 answer under one key must be the first one, word for word. */
  private idempotentAnswer(op: number, key: string, call: Call) {
    if (call.status !== 200 || !call.text) return;
    const rec = this.v2Answers.get(key);
    if (!rec) return;
    if (rec.first === undefined) rec.first = call.text;
    else if (rec.first !== call.text)
      this.violation(
        "idempotency.same-answer",
        op,
        `Idempotency-Key ${key}: an answer differs from the first (first op ${rec.op}): ${rec.first} vs ${call.text}`,
      );
  }

  // Operations -----------------------------------------------------------------------------

  async run(op: Op): Promise<void> {
    const i = op.i;
    // A scene of a person invited earlier in it, whose invitation did not go through: nobody to act.
    for (const k of op.kind === "invite" ? (["who"] as const) : (["who", "target", "as"] as const)) {
      const name = (op as { [key in typeof k]?: unknown })[k];
      if ((INVITEES as readonly unknown[]).includes(name) && !this.people[name as Person]) return;
    }
    switch (op.kind) {
      case "deposit": {
        const r = await this.sandbox(
          op.bank,
          "POST",
          "/sandbox/deposits",
          {
            accountNumber: this.accounts[op.acct],
            amount: dollars(op.cents),
            description: "SIM DEPOSIT",
          },
          i,
        );
        if (ok(r)) this.depositsAck += op.cents;
        else if (!definite(r) || (r.status as number) >= 500) this.depositsMaybe += op.cents;
        return;
      }
      case "sen": {
        const cents = op.size ? await this.sizedFromBalance(i, op) : op.cents;
        if (cents === null) return;
        const over = cents > this.senThreshold;
        const body = {
          idempotencyKey: op.key,
          AccountNumberFrom: this.accounts[op.from],
          AccountNumberTo: this.accounts[op.to],
          Amount: dollars(cents),
        };
        let call = await this.dash(i, op.who, op.inst, "POST", "/api/transfers", body, {
          need: "transfer",
          abortMs: op.abortMs,
        });
        // The answer never came: the same form is submitted again, and must move money once.
        if (op.abortMs !== undefined && !definite(call))
          call = await this.dash(i, op.who, op.inst, "POST", "/api/transfers", body, { need: "transfer" });
        const a = call.answer as { outcome?: string; draft?: { id: string } } | undefined;
        if (ok(call) && a?.outcome === "completed" && over)
          this.violation(
            "release.second-person",
            i,
            `a SEN transfer of $${dollars(cents)} left at once, above the release threshold in force ($${dollars(this.senThreshold)}, as two admins set it)`,
          );
        if (ok(call) && a?.outcome === "draft" && a.draft) {
          // SEN drafts join the drafts approvers release, after the wire drafts the schedule names.
          this.drafts.set(10_000 + i, {
            id: a.draft.id,
            kind: "sen",
            from: op.from,
            cents,
            preparedBy: op.who,
            approvers: new Set(),
            bestEligible: 0,
            unanswered: new Set(),
          });
        }
        return;
      }
      case "wire": {
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          "/api/wires",
          this.wireBody(op.key, op.from, op.cents),
          {
            need: "transfer",
          },
        );
        if (ok(call))
          this.drafts.set(op.draft, {
            id: op.key,
            kind: "wire",
            from: op.from,
            cents: op.cents,
            preparedBy: op.who,
            approvers: new Set(),
            bestEligible: 0,
            unanswered: new Set(),
          });
        return;
      }
      case "edit": {
        const d = this.drafts.get(op.draft);
        if (d?.kind !== "wire") return;
        const got = await this.dash(i, op.who, op.inst, "GET", `/api/drafts/${d.id}`);
        const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
        if (!version) return;
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "PUT",
          `/api/drafts/${d.id}`,
          {
            version,
            wire: this.wireBody(d.id, d.from as Account, op.cents),
          },
          { need: "transfer" },
        );
        if (ok(call)) {
          d.cents = op.cents;
          d.preparedBy = op.who;
          d.approvers.clear();
          d.bestEligible = 0;
        }
        return;
      }
      case "release": {
        const d = this.releasable(op.draft, i);
        if (!d) return;
        if (op.afterMs) await new Promise((r) => setTimeout(r, op.afterMs));
        const got = await this.dash(i, op.who, op.insts[0], "GET", `/api/drafts/${d.id}`);
        const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
        if (!version) return;
        // What could count if this release decides: the votes so far and its sender, as they stand now.
        if (op.who !== d.preparedBy)
          d.bestEligible = Math.max(
            d.bestEligible,
            this.eligibleCount([...d.approvers, ...d.unanswered, op.who], "release", d.preparedBy),
          );
        const calls = await Promise.all(
          op.insts.map((inst, k) =>
            this.dash(
              i,
              op.who,
              inst,
              "POST",
              `/api/drafts/${d.id}/release`,
              { version },
              {
                need: "release",
                abortMs: k === 0 ? op.abortMs : undefined,
              },
            ),
          ),
        );
        for (const c of calls) {
          if (!definite(c) && c.session === "normal") d.unanswered.add(op.who);
          if (!ok(c) || c.session !== "normal" || op.who === d.preparedBy) continue;
          this.voteCast(i, op.who, "release", `draft ${d.id}`);
          d.approvers.add(op.who);
          const status = (c.answer as { draft?: { status?: string } } | undefined)?.draft?.status;
          const left = status === "released" || status === "queued";
          if (left) this.judgeDecision(i, d);
          if (left && d.payee && d.payee.account !== this.payeeApproved.get(d.payee.n))
            this.violation(
              "payee.second-person",
              i,
              `draft ${d.id} paid saved beneficiary ${d.payee.n} at account ${d.payee.account}, which no second person approved (approved: ${this.payeeApproved.get(d.payee.n) ?? "none"})`,
            );
          if (left && d.cents > this.releaseDual && d.approvers.size < 2)
            this.violation(
              "release.second-person",
              i,
              `draft ${d.id} of $${dollars(d.cents)} (limit $${dollars(this.releaseDual)}) left with one approver: ${[...d.approvers].join(", ")}`,
            );
        }
        return;
      }
      case "reject": {
        const d = this.releasable(op.draft, i);
        if (!d) return;
        const got = await this.dash(i, op.who, op.inst, "GET", `/api/drafts/${d.id}`);
        const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
        if (!version) return;
        await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/drafts/${d.id}/reject`,
          { version, reason: "SIM REJECT" },
          {
            need: "release",
          },
        );
        return;
      }
      case "inWire": {
        const r = await this.sandbox<{ payment_id: string; payment_timestamp: string }>(
          op.bank,
          "POST",
          "/sandbox/incoming-wires",
          {
            accountNumber: this.accounts[op.acct],
            amount: dollars(op.cents),
            originatorName: "SIM ORIGINATOR",
            referenceForBeneficiary: `SIMW${op.wire}`,
          },
          i,
        );
        if (!ok(r)) return;
        this.wires.set(op.wire, {
          paymentId: r.answer.payment_id,
          account: this.accounts[op.acct],
          cents: op.cents,
          timestamp: r.answer.payment_timestamp,
          votes: new Set(),
          bestEligible: 0,
          unanswered: new Set(),
        });
        this.seeClock(i, op.bank, r, Date.parse(`${r.answer.payment_timestamp.replace(" ", "T")}Z`));
        return;
      }
      case "decide": {
        const w = this.wires.get(op.wire);
        if (!w) return;
        const queue = await this.dash(i, op.who, op.inst, "GET", "/api/incoming-wires");
        const row = (
          queue.answer as { wires?: { paymentId: string; paymentTimestamp: string }[] } | undefined
        )?.wires?.find((x) => x.paymentId === w.paymentId);
        if (row) w.timestamp = row.paymentTimestamp;
        const vote = op.action !== "cancel";
        if (op.action === "approve")
          w.bestEligible = Math.max(
            w.bestEligible,
            this.eligibleCount([...w.votes, ...w.unanswered, op.who], "act"),
          );
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/incoming-wires/${w.paymentId}`,
          {
            accountNumber: w.account,
            action: op.action,
            paymentTimestamp: w.timestamp,
          },
          { need: "act" },
        );
        // The limit in force when it was decided is the one it is judged by.
        const outcome = (call.answer as { outcome?: string } | undefined)?.outcome;
        if (ok(call) && (outcome === "sent" || outcome === "queued"))
          this.decidedUnder.set(w.paymentId, this.dualApproval);
        if (!definite(call) && call.session === "normal" && op.action === "approve") w.unanswered.add(op.who);
        if (!ok(call) || call.session !== "normal" || !vote) return;
        this.voteCast(i, op.who, "act", `incoming wire ${w.paymentId}`);
        if (op.action !== "approve") return;
        w.votes.add(op.who);
        if (outcome === "sent" || outcome === "queued") {
          const required = w.cents > this.dualApproval ? 2 : 1;
          if (w.votes.size >= required && w.bestEligible < required)
            this.ineligibleDecision(
              i,
              `incoming wire ${w.paymentId} of $${dollars(w.cents)}`,
              w.votes,
              "act",
              {
                required,
                best: w.bestEligible,
              },
            );
        }
        return;
      }
      case "wireSystem":
        await this.sandbox(op.bank, "POST", "/sandbox/wire-system", { status: op.status }, i);
        return;
      case "settle":
        await this.sandbox(op.bank, "POST", "/sandbox/settle", {}, i);
        return;
      case "clock": {
        const r = await this.sandbox<{ now: string }>(
          op.bank,
          "POST",
          "/sandbox/clock",
          { advanceSeconds: op.seconds },
          i,
        );
        if (ok(r)) this.seeClock(i, op.bank, r, Date.parse(r.answer.now));
        return;
      }
      case "v2": {
        const body = {
          AccountNumberFrom: this.accounts[op.from],
          AccountNumberTo: this.accounts[op.to],
          Amount: Number(dollars(op.cents)),
        };
        if (body.AccountNumberFrom === body.AccountNumberTo) return;
        this.v2Answers.set(op.key, { body, op: i });
        const calls = await Promise.all(
          Array.from({ length: op.copies }, () => this.v2Transfer(i, op.bank, body, op.key)),
        );
        for (const c of calls) this.idempotentAnswer(i, op.key, c);
        return;
      }
      case "v2replay": {
        const of = this.schedule[op.of];
        if (of?.kind !== "v2") return;
        const rec = this.v2Answers.get(of.key);
        if (!rec) return;
        const call = await this.v2Transfer(i, op.bank, rec.body, of.key);
        this.idempotentAnswer(i, of.key, call);
        return;
      }
      case "settings":
        return this.changeSetting(i, op.who, op.inst, op.setting, op.cents);
      case "approveChanges":
        return this.approveChanges(i, op.who, op.inst);
      case "role": {
        const t = this.people[op.target];
        const call = await this.asAdmin(i, op, "PATCH", `/api/admin/users/${t.id}`, { role: op.role });
        if (!ok(call)) return;
        if (pendingOf(call)) return;
        if (grants(t.role, op.role))
          this.violation(
            "control.one-admin",
            i,
            `${op.who} alone made ${op.target} ${op.role} (was ${t.role}), in force at once`,
          );
        t.role = op.role;
        return;
      }
      case "disable": {
        const t = this.people[op.target];
        const call = await this.asAdmin(i, op, "PATCH", `/api/admin/users/${t.id}`, {
          disabled: op.disabled,
        });
        if (!ok(call) || pendingOf(call)) return;
        if (!op.disabled && t.disabled && POWERS[t.role].length)
          this.violation(
            "control.one-admin",
            i,
            `${op.who} alone enabled ${op.target} (${t.role}) again, in force at once`,
          );
        t.disabled = op.disabled;
        return;
      }
      case "reset": {
        const t = this.people[op.target];
        const call = await this.asAdmin(i, op, "POST", `/api/admin/users/${t.id}/reset-password`);
        const temp = (call.answer as { temporaryPassword?: string } | undefined)?.temporaryPassword;
        // No administrator may receive a password: a reset e-mails a one-time link to its person.
        if (ok(call) && temp)
          this.violation(
            "control.one-admin",
            i,
            `${op.who} reset the password of ${op.target} (${t.role}) and received a working temporary password`,
          );
        if (ok(call) && !pendingOf(call)) await this.resetDone(op.target, i);
        return;
      }
      case "takeOver": {
        const t = this.people[op.target];
        const before = t.password;
        const call = await this.asAdmin(i, op, "POST", `/api/admin/users/${t.id}/reset-password`);
        const effect = ok(call) && !pendingOf(call);
        if (effect) this.resetTookEffect(op.target);
        // The old password once the reset is in force (before it, it is still the person's own).
        await this.borrowAttempts(i, op.who, op.target, op.inst, call, effect ? [before] : []);
        if (effect) await this.followOwnLink(op.target, "reset", i);
        return;
      }
      case "invite": {
        if (this.people[op.target]) return;
        const email = `${op.target}@sim.example`;
        // A password of the admin's choosing sent along: the product must not take it.
        const chosen = `Rogue-${op.who}-${op.target}-${i}-password`;
        const call = await this.asAdmin(i, op, "POST", "/api/admin/users", {
          email,
          name: `Sim ${op.target}`,
          role: op.role,
          password: chosen,
        });
        const user = (call.answer as { user?: { id?: string; role?: Role } } | undefined)?.user;
        if (!ok(call) || !user?.id) return;
        const role = user.role ?? "viewer";
        if (!pendingOf(call) && grants("viewer", role))
          this.violation(
            "control.one-admin",
            i,
            `${op.who} alone invited ${op.target} as ${role}, in force at once`,
          );
        this.people[op.target] = {
          id: user.id,
          email,
          password: "",
          role,
          disabled: false,
          resetPending: true,
          cookie: null,
          temporary: false,
          revoked: [],
          passwordChanges: 0,
          credentialsAt: Date.now(),
          ownSignIns: 0,
        };
        await this.borrowAttempts(i, op.who, op.target, op.inst, call, [chosen]);
        await this.followOwnLink(op.target, "invite", i);
        return;
      }
      case "borrowedRelease": {
        const cookie = this.borrowed.get(`${op.who}>${op.as}`);
        const d = this.releasable(op.draft, i);
        if (!cookie || !d) return;
        const borrowed = { op: i, actor: op.who, session: `as ${op.as}`, target: `dashboard${op.inst}` };
        const url = `${this.cluster.dashUrl(op.inst)}/api/drafts/${d.id}`;
        const got = await this.history.call(
          { ...borrowed, method: "GET", path: `/api/drafts/${d.id}` },
          { url, headers: { cookie } },
        );
        const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
        if (!version) return;
        const call = await this.history.call(
          { ...borrowed, method: "POST", path: `/api/drafts/${d.id}/release`, body: { version } },
          { url: `${url}/release`, headers: { cookie } },
        );
        if (!ok(call)) return;
        this.violation("session.own-person", i, `${op.who} released draft ${d.id} as ${op.as}`);
        d.approvers.add(op.as);
        const status = (call.answer as { draft?: { status?: string } } | undefined)?.draft?.status;
        if (status === "released" || status === "queued") this.judgeDecision(i, d);
        return;
      }
      case "signIn": {
        const p = this.people[op.who];
        if (p.disabled) return;
        // Another sign-in (a second browser) leaves the first session as it was.
        await this.signIn(i, op.who, op.inst);
        return;
      }
      case "signOut":
        return this.signOut(i, op.who, op.inst);
      case "replayRevoked": {
        const p = this.people[op.who];
        const cookie = p.revoked.at(-1);
        if (!cookie) return;
        await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          "/api/transfers",
          {
            idempotencyKey: op.key,
            AccountNumberFrom: this.accounts[op.from],
            AccountNumberTo: this.accounts[op.to],
            Amount: dollars(op.cents),
          },
          { need: "transfer", cookie, sessionLabel: "signed out" },
        );
        return;
      }
      case "factorOn": {
        const p = this.people[op.who];
        const start = await this.dash(i, op.who, op.inst, "POST", "/api/profile/totp", {
          currentPassword: p.password,
        });
        const secret = (start.answer as { secret?: string } | undefined)?.secret;
        if (!ok(start) || !secret) return;
        const done = await this.dash(i, op.who, op.inst, "POST", "/api/profile/totp/confirm", {
          code: await generate({ secret }),
        });
        if (ok(done)) p.totpSecret = secret;
        return;
      }
      case "factorRemoval": {
        const t = this.people[op.target];
        if (!t.totpSecret) return;
        await this.asAdmin(i, op, "POST", `/api/admin/users/${t.id}/remove-second-factor`);
        return;
      }
      case "factorLink":
        return this.removeFactorByLink(op.who, op.inst, i);
      case "changePassword": {
        const p = this.people[op.who];
        if (!p.cookie) await this.signIn(i, op.who, op.inst);
        if (!p.cookie) return;
        const next = `Sim-${op.who}-password-${String(++this.pwCounter).padStart(4, "0")}x`;
        const call = await this.dash(i, op.who, op.inst, "POST", "/api/profile/password", {
          currentPassword: p.password,
          newPassword: next,
          confirmPassword: next,
        });
        if (ok(call)) {
          p.password = next;
          p.resetPending = false;
          p.temporary = false;
          p.passwordChanges++;
        }
        return;
      }
      case "alertRule":
        return;
      case "registerHook": {
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          "/api/webhooks",
          {
            accountNumber: this.accounts[op.acct],
            url: `${this.cluster.sink.url()}/hook/${i}`,
            description: "SIM SINK",
          },
          { need: "admin" },
        );
        const id = (call.answer as { webhook?: { id: string } } | undefined)?.webhook?.id;
        if (ok(call) && id) this.sinkHooks.add(id);
        return;
      }
      case "payee": {
        const body = {
          label: `SIM PAYEE ${op.payee}`,
          fields: {
            beneficiary_name: `SIM PAYEE ${op.payee}`,
            beneficiary_account_number: op.account,
            beneficiary_address1: "2 SIMULATION AVE",
            receiving_bank_routing_id: "011000015",
            receiving_bank_name: "FIRST EXAMPLE BANK",
          },
        };
        const id = this.payees.get(op.payee);
        if (!this.payeeProposed.has(op.payee)) this.payeeProposed.set(op.payee, new Set());
        this.payeeProposed.get(op.payee)?.add(op.account);
        const call = id
          ? await this.dash(i, op.who, op.inst, "PUT", `/api/beneficiaries/${id}`, body, { need: "transfer" })
          : await this.dash(i, op.who, op.inst, "POST", "/api/beneficiaries", body, { need: "transfer" });
        const made = (call.answer as { beneficiary?: { id: string } } | undefined)?.beneficiary?.id;
        if (ok(call) && made) {
          this.payees.set(op.payee, made);
          // Approved or not, it waits for a second person in the model: only an approval by
          // someone else makes it the account money may go to.
          this.payeePending.set(op.payee, op.account);
        }
        return;
      }
      case "payeeApprove": {
        const id = this.payees.get(op.payee);
        const account = this.payeePending.get(op.payee);
        if (!id || !account) return;
        const list = await this.dash(i, op.who, op.inst, "GET", "/api/beneficiaries");
        type Listed = {
          id: string;
          pendingChange?: {
            id: string;
            changedBy?: { email?: string };
            fields?: { field: string; after: string }[];
          } | null;
        };
        const b = (list.answer as { beneficiaries?: Listed[] } | undefined)?.beneficiaries?.find(
          (x) => x.id === id,
        );
        const change = b?.pendingChange;
        if (!change) return;
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/beneficiaries/${id}/approve`,
          { changeId: change.id },
          {
            need: "release",
          },
        );
        if (ok(call) && change.changedBy?.email !== this.people[op.who].email) {
          // The account the approver was shown. A change whose answer was lost (the instance died
          // after saving it) can be the one waiting: it counts when the simulator did ask for that
          // account; one it never asked for stays unapproved in the model, and paying it is a finding.
          // The page masks account numbers: the one asked for that the mask fits, if one alone does.
          const shown = change.fields?.find((f) => f.field === "beneficiary_account_number")?.after;
          const fits = [...(this.payeeProposed.get(op.payee) ?? [])].filter(
            (a) => shown !== undefined && maskAccountNumber(a) === shown,
          );
          this.payeeApproved.set(op.payee, fits.length === 1 ? fits[0] : account);
          this.payeePending.delete(op.payee);
        }
        return;
      }
      case "payeeWire": {
        const id = this.payees.get(op.payee);
        if (!id) return;
        const list = await this.dash(i, op.who, op.inst, "GET", "/api/beneficiaries");
        type Listed = { id: string; fields: Record<string, string> };
        const b = (list.answer as { beneficiaries?: Listed[] } | undefined)?.beneficiaries?.find(
          (x) => x.id === id,
        );
        if (!b) return;
        const body = {
          ...this.wireBody(op.key, "A0", op.cents),
          ...b.fields,
          beneficiaryId: id,
          originator_to_beneficiary_info: tagOf(op.key),
        };
        const call = await this.dash(i, op.who, op.inst, "POST", "/api/wires", body, { need: "transfer" });
        if (ok(call))
          this.drafts.set(op.draft, {
            id: op.key,
            kind: "wire",
            from: "A0",
            cents: op.cents,
            preparedBy: op.who,
            approvers: new Set(),
            bestEligible: 0,
            unanswered: new Set(),
            payee: { n: op.payee, account: b.fields.beneficiary_account_number ?? "" },
          });
        return;
      }

      case "sinkMode":
        this.cluster.sink.mode = op.mode;
        return;
      case "bankPath":
        this.cluster.bankPaths[op.index].mode = op.mode;
        return;
      case "read":
        await this.dash(i, op.who, op.inst, "GET", "/api/accounts");
        return;
      case "receiverMode":
        this.cluster.receiver.mode = op.mode;
        return;
      case "streams":
        return this.openStreams(i);
      case "kill":
        await this.cluster.killAndRestart(op.target, op.index);
        this.kills++;
        if (op.target === "bank") this.clientToken = null;
        return;
      case "check":
        return;
      case "series":
      case "seriesEdit":
      case "seriesApprove":
      case "seriesStatus":
      case "skip":
      case "sweep":
      case "sweepApprove":
      case "sweepStatus":
      case "advance":
        return this.scheduled(op);
    }
  }

  // Schedules and sweeps ------------------------------------------------------------------------

  /** The bank's business date, heard afresh through any bank that answers. */
  private async bankToday(op: number, first = 0): Promise<string> {
    for (let k = 0; k < this.cluster.n; k++) {
      const r = await this.sandbox<{ businessDate: string }>(
        (first + k) % this.cluster.n,
        "GET",
        "/sandbox/clock",
        undefined,
        op,
      );
      if (ok(r) && r.answer?.businessDate) {
        this.bankDate = r.answer.businessDate;
        break;
      }
    }
    return this.bankDate;
  }

  /**
   * At the end of a run with schedules: the runners finish the bank's business date (a claim of a
   * dashboard killed mid-send is taken over once its lease of 120 s is over).
   */
  async settleSchedules(op: number): Promise<void> {
    if (!this.series.size && !this.sweeps.size) return;
    await this.afterRuns(op, await this.bankToday(op), 150_000);
  }

  /** A form sent again while no answer came (the same key: the product makes one series or sweep). */
  private async submit(op: number, who: Person, inst: number, path: string, body: unknown): Promise<Call> {
    let call = await this.dash(op, who, inst, "POST", path, body, { need: "transfer" });
    for (let k = 0; k < 3 && !definite(call); k++)
      call = await this.dash(op, who, inst, "POST", path, body, { need: "transfer" });
    return call;
  }

  private async scheduled(
    op: Extract<
      Op,
      {
        kind:
          | "series"
          | "seriesEdit"
          | "seriesApprove"
          | "seriesStatus"
          | "skip"
          | "sweep"
          | "sweepApprove"
          | "sweepStatus"
          | "advance";
      }
    >,
  ): Promise<void> {
    const i = op.i;
    type SeriesAnswer = { series?: SeriesSeen };
    type SweepAnswer = { sweep?: { id: string; version: number; status: string; approved: boolean } };
    switch (op.kind) {
      case "series": {
        const startsOn = await this.bankToday(i);
        const pattern =
          op.pattern.kind === "weekly"
            ? { kind: "weekly", everyWeeks: 1, weekday: op.pattern.weekday }
            : { kind: "monthly-day", day: op.pattern.day };
        const schedule = { startsOn, pattern, count: null, until: null, roll: "following" };
        const payee = op.rail === "wire" ? (op.payee ?? "") : this.accounts[op.to];
        const call = await this.submit(
          i,
          op.who,
          op.inst,
          "/api/schedules",
          this.seriesBody(op.rail, `Sim series ${op.series}`, schedule, op.key, op.from, payee, op.cents),
        );
        const s = (call.answer as SeriesAnswer | undefined)?.series;
        if (!ok(call) || !s) return;
        const day = s.schedule.startsOn;
        const m: SeriesModel = {
          id: s.id,
          version: s.version,
          rail: op.rail,
          from: op.from,
          to: op.to,
          payee,
          cents: op.cents,
          approvedTerms: new Set(),
          key: op.key,
          pattern: op.pattern,
          startsOn: day,
          changes: [{ day, status: s.status }],
          skipped: new Set(),
        };
        this.series.set(op.series, m);
        this.seeSeries(m, s);
        return;
      }
      case "seriesEdit": {
        const m = this.series.get(op.series);
        if (!m) return;
        const got = await this.dash(i, op.who, op.inst, "GET", `/api/schedules/${m.id}`);
        const before = (got.answer as SeriesAnswer | undefined)?.series;
        if (!ok(got) || !before || !isLiveSeries(before.status)) return;
        const cents = op.change === "amount" ? op.cents : m.cents;
        const payee = op.change !== "payee" ? m.payee : m.rail === "wire" ? op.payee : this.accounts[op.to];
        if (op.change === "payee" && m.rail === "sen" && (op.to === m.from || payee === m.payee)) return;
        const name = op.change === "rename" ? `Sim series ${op.series} (renamed at op ${i})` : before.name;
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "PUT",
          `/api/schedules/${m.id}`,
          {
            version: before.version,
            ...this.seriesBody(m.rail, name, before.schedule, m.key, m.from, payee, cents),
          },
          { need: "transfer" },
        );
        const after = (call.answer as SeriesAnswer | undefined)?.series;
        if (!ok(call) || !after) {
          // No answer: what the product holds decides the model (the edit may have landed).
          const now = await this.dash(i, "v1", op.inst, "GET", `/api/schedules/${m.id}`);
          const s = (now.answer as SeriesAnswer | undefined)?.series;
          if (s && s.version !== m.version && s.amountCents === cents) {
            Object.assign(m, {
              version: s.version,
              cents,
              payee,
              ...(op.change === "payee" ? { to: op.to } : {}),
            });
            this.seeSeries(m, s);
          }
          return;
        }
        this.seriesEdits[op.change]++;
        // A new amount or payee is approved anew: a higher version with no approval of its own;
        // a new name keeps the version and what approved it.
        const raised = after.version > before.version && after.approvals.length === 0;
        const kept = after.version === before.version && after.approved === before.approved;
        if (op.change === "rename" ? !kept : !raised)
          this.violation(
            "schedule.edit-approval",
            i,
            `${op.who} changed the ${op.change} of series ${m.id} (version ${before.version}, ${before.approved ? "approved" : "not approved"}): the answer says version ${after.version} with ${after.approvals.length} approval(s), ${after.approved ? "approved" : "not approved"}`,
          );
        Object.assign(m, {
          version: after.version,
          cents,
          payee,
          ...(op.change === "payee" && m.rail === "sen" ? { to: op.to } : {}),
        });
        this.seeSeries(m, after);
        return;
      }
      case "seriesApprove": {
        const m = this.series.get(op.series);
        if (!m) return;
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/schedules/${m.id}/approve`,
          { version: m.version },
          { need: "release" },
        );
        const s = (call.answer as SeriesAnswer | undefined)?.series;
        if (ok(call) && s) {
          m.version = s.version;
          this.seeSeries(m, s);
        } else if (!definite(call)) {
          // No answer: the approval may have landed; the product's next answer says.
          const now = await this.dash(i, "v1", op.inst, "GET", `/api/schedules/${m.id}`);
          const seen = (now.answer as SeriesAnswer | undefined)?.series;
          if (seen) this.seeSeries(m, seen);
        }
        return;
      }
      case "seriesStatus": {
        const m = this.series.get(op.series);
        if (!m) return;
        const day = await this.bankToday(i);
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/schedules/${m.id}/status`,
          { action: op.action },
          { need: "transfer" },
        );
        // What the product holds now, whatever the answer said (or whether one came).
        const status = this.cluster.bankDbUrl
          ? (
              await this.cluster.dashQuery<{ status: string }>(
                "SELECT status FROM payment_series WHERE id = $1",
                [m.id],
              )
            )[0]?.status
          : (call.answer as SeriesAnswer | undefined)?.series?.status;
        if (status && status !== m.changes[m.changes.length - 1].status) m.changes.push({ day, status });
        return;
      }
      case "skip": {
        const m = this.series.get(op.series);
        if (!m) return;
        const today = await this.bankToday(i);
        const read = await this.dash(i, op.who, op.inst, "GET", "/api/schedules");
        const upcoming =
          (
            read.answer as
              | { upcoming?: { seriesId: string; nominalDay: string; day: string; status: string }[] }
              | undefined
          )?.upcoming ?? [];
        // One not due yet: today's may be paid by a runner at the same moment.
        const coming = upcoming.filter((u) => u.seriesId === m.id && u.day > today && u.status === "due");
        const pick = coming[op.ahead] ?? coming[0];
        if (!pick) return;
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/schedules/${m.id}/skip`,
          { nominalDay: pick.nominalDay },
          { need: "transfer" },
        );
        if (ok(call)) m.skipped.add(pick.nominalDay);
        return;
      }
      case "sweep": {
        const call = await this.submit(i, op.who, op.inst, "/api/schedules/sweeps", {
          idempotencyKey: op.key,
          name: `Sim sweep ${op.sweep}`,
          account: this.accounts[op.account],
          fundingAccount: this.accounts[op.funding],
          lowCents: op.lowCents,
          highCents: op.highCents,
          // Every business day's run, whatever the time of day the bank's clock shows.
          runAt: "00:00",
        });
        const s = (call.answer as SweepAnswer | undefined)?.sweep;
        if (!ok(call) || !s) return;
        this.sweeps.set(op.sweep, {
          id: s.id,
          version: s.version,
          account: op.account,
          funding: op.funding,
          lowCents: op.lowCents,
          highCents: op.highCents,
          approved: s.approved,
          status: s.status,
        });
        return;
      }
      case "sweepApprove": {
        const m = this.sweeps.get(op.sweep);
        if (!m) return;
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/schedules/sweeps/${m.id}/approve`,
          { version: m.version },
          { need: "release" },
        );
        const s = (call.answer as SweepAnswer | undefined)?.sweep;
        if (ok(call) && s) Object.assign(m, { version: s.version, approved: s.approved, status: s.status });
        return;
      }
      case "sweepStatus": {
        const m = this.sweeps.get(op.sweep);
        if (!m) return;
        const call = await this.dash(
          i,
          op.who,
          op.inst,
          "POST",
          `/api/schedules/sweeps/${m.id}/status`,
          { action: op.action },
          { need: "transfer" },
        );
        const s = (call.answer as SweepAnswer | undefined)?.sweep;
        if (ok(call) && s) m.status = s.status;
        else if (this.cluster.bankDbUrl)
          m.status =
            (
              await this.cluster.dashQuery<{ status: string }>("SELECT status FROM sweeps WHERE id = $1", [
                m.id,
              ])
            )[0]?.status ?? m.status;
        return;
      }
      case "advance": {
        // What the Scheduled page calls approved before the days pass (a change of the policy by
        // the admins may approve a version no approval answered).
        const page = await this.dash(i, "v1", op.bank % this.cluster.n, "GET", "/api/schedules");
        const listed = (page.answer as { series?: SeriesSeen[] } | undefined)?.series ?? [];
        for (const m of this.series.values()) {
          const seen = listed.find((x) => x.id === m.id);
          if (seen) this.seeSeries(m, seen);
        }
        for (let d = 0; d < op.days; d++) {
          // A day at a time until the bank's date is a business day (weekends and holidays pass).
          for (let k = 0; k < 10; k++) {
            const r = await this.sandbox<{ now: string; businessDate: string }>(
              op.bank,
              "POST",
              "/sandbox/clock",
              { advanceSeconds: 86_400 },
              i,
            );
            if (ok(r)) {
              this.seeClock(i, op.bank, r, Date.parse(r.answer.now));
              this.bankDate = r.answer.businessDate;
            } else await this.bankToday(i, op.bank + 1);
            if (ok(r) && isBusinessDay(this.bankDate)) break;
          }
          await this.afterRuns(i, this.bankDate);
        }
        return;
      }
    }
  }

  /**
   * Waits until the dashboards' runners have done the business day's work (every active series
   * written up to the day, no occurrence of the day or before still to send, each approved active
   * sweep's run of the day made and its account inside its band, or its funding account unable to
   * cover it), at most RUNS_SETTLE_MS; then notes each such sweep's balances for the checker.
   */
  async afterRuns(op: number, day: string, timeoutMs = RUNS_SETTLE_MS): Promise<void> {
    const c = this.cluster;
    if (!c.bankDbUrl) {
      await new Promise((r) => setTimeout(r, 3000));
      return;
    }
    const started = Date.now();
    const judged = [...this.sweeps.values()].filter((s) => s.approved && s.status === "active");
    let looks: SweepLook[] = [];
    for (;;) {
      const [open] = await c.dashQuery<{ k: string }>(
        `SELECT (SELECT count(*) FROM payment_series WHERE status = 'active' AND next_day IS NOT NULL AND next_day <= $1)
              + (SELECT count(*) FROM series_occurrences WHERE day <= $1 AND status IN (${sqlWords(OPEN_OCCURRENCE_STATUSES)})) AS k`,
        [day],
      );
      const balances = new Map(
        (
          await c.bankQuery<{ number: string; available_cents: string }>(
            "SELECT number, available_cents FROM accounts WHERE number = ANY($1)",
            [judged.flatMap((s) => [this.accounts[s.account], this.accounts[s.funding]])],
          )
        ).map((a) => [a.number, Number(a.available_cents)]),
      );
      const waited = Math.round((Date.now() - started) / 1000);
      looks = [];
      for (const s of judged) {
        const [run] = await c.dashQuery<{ status: string }>(
          "SELECT status FROM sweep_moves WHERE sweep_id = $1 AND day = $2 AND slot = 'run'",
          [s.id, day],
        );
        looks.push({
          op,
          day,
          sweep: s,
          keptCents: balances.get(this.accounts[s.account]) ?? 0,
          fundingCents: balances.get(this.accounts[s.funding]) ?? 0,
          ran: run?.status ?? null,
          waited,
        });
      }
      const settled = looks.every((l) => l.ran && l.ran !== "sending" && !outOfBand(l));
      if ((Number(open?.k ?? 0) === 0 && settled) || Date.now() - started > timeoutMs) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    this.sweepLooks.push(...looks);
  }

  // Votes and who may cast them ---------------------------------------------------------------

  /** Why the person's vote (a release, or an incoming-wire decision) cannot count now, or null. */
  private whyIneligible(who: Person, need: "release" | "act", preparedBy?: Person): string | null {
    const p = this.people[who];
    if (!p) return "is no user";
    if (who === preparedBy) return "prepared it";
    if (p.disabled) return "is disabled";
    if (!PERMS[need].includes(p.role)) return `is now ${p.role}`;
    if (p.resetPending) return "has a password reset pending";
    const since = p.credentialsAt === null ? Number.POSITIVE_INFINITY : Date.now() - p.credentialsAt;
    if (since < CREDENTIALS_EMBARGO_MS)
      return `had credentials reset or was invited ${Math.round(since / 1000)} s before`;
    return null;
  }

  private eligibleCount(voters: Iterable<Person>, need: "release" | "act", preparedBy?: Person): number {
    return [...new Set(voters)].filter((v) => !this.whyIneligible(v, need, preparedBy)).length;
  }

  /** A vote on money was accepted: its voter must not be within a day of a credential change. */
  private voteCast(op: number, who: Person, need: "release" | "act", what: string) {
    const why = this.whyIneligible(who, need);
    if (why?.startsWith("had credentials"))
      this.violation(
        "vote.credentials-recent",
        op,
        `${who}'s vote on ${what} was accepted although ${who} ${why}`,
      );
  }

  /** A draft left: enough of its votes must have been able to count at one moment before. */
  private judgeDecision(op: number, d: DraftState) {
    const required = d.cents > this.releaseDual ? 2 : 1;
    // Fewer votes in the model than required is release.second-person's to report.
    if (d.approvers.size < required || d.bestEligible >= required) return;
    this.ineligibleDecision(op, `draft ${d.id} of $${dollars(d.cents)}`, d.approvers, "release", {
      required,
      best: d.bestEligible,
      preparedBy: d.preparedBy,
    });
  }

  private ineligibleDecision(
    op: number,
    what: string,
    voters: Set<Person>,
    need: "release" | "act",
    o: { required: number; best: number; preparedBy?: Person },
  ) {
    const struck = [...voters]
      .map((v) => [v, this.whyIneligible(v, need, o.preparedBy)] as const)
      .filter(([, why]) => why);
    const recent = struck.some(([, why]) => why?.startsWith("had credentials"));
    this.violation(
      recent ? "vote.credentials-recent" : "vote.eligible-at-decision",
      op,
      `${what} left with at most ${o.best} vote(s) that could count at once (it needs ${o.required}); votes by ${[...voters].join(", ")}, of which not counting: ${struck.map(([v, why]) => `${v} ${why}`).join("; ")}`,
    );
  }

  // Credentials ------------------------------------------------------------------------------

  /** Passwords, secrets and links anywhere in an answer: none may reach an administrator. */
  private secretsIn(answer: unknown, text: string | undefined): string[] {
    const out: string[] = [];
    const walk = (v: unknown, key: string) => {
      if (typeof v === "string") {
        if (/password|secret|token|link|url/i.test(key) && !/(At|Until)$/.test(key) && v.length >= 8)
          out.push(v);
      } else if (Array.isArray(v)) for (const x of v) walk(x, key);
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(answer, "");
    for (const m of (text ?? "").matchAll(LINK_TOKEN)) out.push(m[1]);
    return [...new Set(out)];
  }

  /** A reset is in force: every session of the person ended, and a link waits in their mail box. */
  private resetTookEffect(target: Person) {
    const t = this.people[target];
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
  private async removeFactorByLink(who: Person, inst: number, op: number) {
    const p = this.people[who];
    if (!p.totpSecret) return;
    const mail = await this.cluster.dashQuery<{ text: string }>(
      `SELECT text FROM mail_outbox WHERE "to" = $1 AND kind = 'credential_link.totp_removal' ORDER BY created_at DESC LIMIT 1`,
      [p.email],
    );
    const token = /\/account-link#([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "")?.[1];
    if (!token) return;
    const t0 = Date.now();
    const res = await fetch(`${this.cluster.dashUrl(inst)}/api/account-link/use`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, currentPassword: p.password }),
    }).catch(() => null);
    await res?.arrayBuffer();
    this.history.calls.push({
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
  private async followOwnLink(target: Person, purpose: "reset" | "invite", op: number) {
    const t = this.people[target];
    const mail = await this.cluster.dashQuery<{ text: string }>(
      `SELECT text FROM mail_outbox WHERE "to" = $1 AND kind = $2 ORDER BY created_at DESC LIMIT 1`,
      [t.email, `credential_link.${purpose}`],
    );
    const token = /\/account-link#([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "")?.[1];
    if (!token) {
      this.violation("control.one-admin", op, `the ${purpose} of ${target} e-mailed them no link`);
      return;
    }
    const next = `Sim-${target}-password-${String(++this.pwCounter).padStart(4, "0")}l`;
    const res = await fetch(`${this.cluster.dashUrl(0)}/api/account-link/use`, {
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
  private async borrowAttempts(
    op: number,
    who: Person,
    target: Person,
    inst: number,
    answer: Call,
    known: string[],
  ) {
    const t = this.people[target];
    const passwords = new Set(known);
    const tokens = new Set<string>();
    const given = this.secretsIn(answer.answer, answer.text);
    if (given.length)
      this.violation(
        "credential.through-admin",
        op,
        `${who} was answered ${answer.status} to ${answer.method} ${answer.path} with a password or link of ${target}'s`,
      );
    for (const g of given) {
      if (/^[A-Za-z0-9_-]{20,100}$/.test(g)) tokens.add(g);
      passwords.add(g);
    }
    const mine = await this.cluster.dashQuery<{ text: string }>(
      `SELECT text FROM mail_outbox WHERE "to" = $1`,
      [this.people[who].email],
    );
    for (const m of mine) for (const x of m.text.matchAll(LINK_TOKEN)) tokens.add(x[1]);
    const base = this.cluster.dashUrl(inst);
    for (const token of tokens) {
      const seen = await this.history.call(
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
      this.violation("credential.through-admin", op, `${who} holds a one-time link to ${target}'s account`);
      // The admin chooses the person's password through it.
      const chosen = `Rogue-${who}-${target}-${op}-password`;
      const used = await this.history.call(
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
      const cookie = await this.credentialsSignIn(op, who, t.email, password, inst, `as ${target}`);
      if (!cookie) continue;
      this.violation(
        "session.own-person",
        op,
        `${who} signed in as ${target} (${t.role}) and holds a session of theirs`,
      );
      this.borrowed.set(`${who}>${target}`, cookie);
    }
  }

  private releasable(n: number, op: number): DraftState | undefined {
    // A release names a wire draft of the schedule, or (beyond them) a SEN draft made since.
    const d = this.drafts.get(n);
    if (d) return d;
    const sen = [...this.drafts.entries()].filter(([k]) => k >= 10_000);
    return sen.length ? sen[(n + op) % sen.length][1] : undefined;
  }

  /** The schedule form's body: a SEN transfer to the account `payee`, or a wire to the beneficiary account `payee`. */
  private seriesBody(
    rail: "sen" | "wire",
    name: string,
    schedule: unknown,
    key: string,
    from: Account,
    payee: string,
    cents: number,
  ) {
    return rail === "sen"
      ? {
          kind: "sen",
          name,
          schedule,
          transfer: {
            idempotencyKey: key,
            AccountNumberFrom: this.accounts[from],
            AccountNumberTo: payee,
            Amount: dollars(cents),
          },
        }
      : {
          kind: "wire",
          name,
          schedule,
          wire: {
            ...this.wireBody(key, from, cents),
            beneficiary_account_number: payee,
            originator_to_beneficiary_info: "SIM SERIES",
          },
        };
  }

  /** The series' terms are approved when an answer says so of the version the model holds. */
  private seeSeries(m: SeriesModel, s: SeriesSeen) {
    if (s.approved && s.version === m.version && s.amountCents === m.cents)
      m.approvedTerms.add(termsKey(m.cents, m.payee));
  }

  private wireBody(key: string, from: Account, cents: number) {
    return {
      idempotencyKey: key,
      originator_account_number: this.accounts[from],
      amount: dollars(cents),
      beneficiary_name: "SIM BENEFICIARY",
      beneficiary_account_number: "12345678",
      beneficiary_address1: "1 SIMULATION ST",
      receiving_bank_routing_id: "011000015",
      receiving_bank_name: "FIRST EXAMPLE BANK",
      // The draft's mark on the payment: the checker finds every payment of a draft by it.
      originator_to_beneficiary_info: tagOf(key),
    };
  }

  private seeClock(op: number, bank: number, call: Call, bankMs: number) {
    if (!Number.isFinite(bankMs)) return;
    // The bank's clock lies in [bankMs - t1, bankMs - t0] ahead of ours; one seen later, through
    // any bank, must not be behind one seen earlier (2 s allowed for the database's own clock).
    const seen = { bank, t0: call.t0, t1: call.t1, bankMs };
    const earlier = this.clock.filter((c) => c.t1 <= seen.t0);
    const lead = Math.max(...earlier.map((c) => c.bankMs - c.t1), Number.NEGATIVE_INFINITY);
    if (seen.bankMs - seen.t0 < lead - 2000) {
      const behind = Math.round((lead - (seen.bankMs - seen.t0)) / 1000);
      this.violation(
        "clock.agrees",
        op,
        `bank${bank}'s sandbox clock is ${behind} s behind what another bank showed before`,
      );
    }
    this.clock.push(seen);
  }

  private async changeSetting(op: number, who: Person, inst: number, setting: string, cents: number) {
    const current =
      setting === "senReleaseThresholdCents"
        ? this.senThreshold
        : setting === "incomingWireDualApprovalCents"
          ? this.dualApproval
          : this.releaseDual;
    const call = await this.dash(
      op,
      who,
      inst,
      "PUT",
      "/api/admin/settings",
      { [setting]: cents },
      { need: "admin" },
    );
    if (!ok(call)) return;
    if (cents <= current) {
      // Tightening is one admin's to make, at once.
      if (setting === "senReleaseThresholdCents") this.senThreshold = cents;
      else if (setting === "incomingWireDualApprovalCents") this.dualApproval = cents;
      else this.releaseDual = cents;
      return;
    }
    // A raise weakens a control: a second admin must approve it before it is in force.
    const read = await this.dash(op, who, inst, "GET", "/api/admin/settings");
    const now = (read.answer as { settings?: Record<string, number> } | undefined)?.settings?.[setting];
    if (now === cents)
      this.violation(
        "control.one-admin",
        op,
        `${who} alone raised ${setting} from ${current} to ${cents} cents and it is in force at once`,
      );
  }

  /**
   * A reset took effect: every session ended, and the person chooses a new password through the
   * one-time link e-mailed to them (read from the dashboard's outbox, as their mail box would).
   */
  private async resetDone(target: Person, op: number) {
    this.resetTookEffect(target);
    await this.followOwnLink(target, "reset", op);
  }

  private async approveChanges(op: number, who: Person, inst: number) {
    const list = await this.dash(op, who, inst, "GET", "/api/admin/changes");
    if (!ok(list)) return;
    type Change = {
      id: string | number;
      kind?: string;
      target?: string;
      after?: unknown;
      status?: string;
      requestedBy?: { email?: string };
    };
    const changes = (list.answer as { changes?: Change[] } | undefined)?.changes ?? [];
    for (const c of changes) {
      if (c.status && c.status !== "pending") continue;
      if (c.requestedBy?.email === this.people[who].email) continue;
      const call = await this.dash(op, who, inst, "POST", `/api/admin/changes/${c.id}/approve`, undefined, {
        need: "admin",
      });
      if (!ok(call)) continue;
      // Approved by a second admin: in force now.
      const person = (Object.keys(this.people) as Person[]).find((p) => this.people[p].id === c.target);
      if (c.kind === "user.role" && person && typeof c.after === "string")
        this.people[person].role = c.after as Role;
      if (c.kind === "user.enable" && person) this.people[person].disabled = false;
      if ((call.answer as { temporaryPassword?: string } | undefined)?.temporaryPassword)
        this.violation("control.one-admin", op, `${who} approved a reset and received a temporary password`);
      if (c.kind === "user.password_reset" && person) await this.resetDone(person, op);
      if (c.kind === "setting" || c.kind === undefined) {
        const read = await this.dash(op, who, inst, "GET", "/api/admin/settings");
        const s = (read.answer as { settings?: Record<string, number> } | undefined)?.settings;
        if (s?.senReleaseThresholdCents) this.senThreshold = s.senReleaseThresholdCents;
        if (s?.incomingWireDualApprovalCents) this.dualApproval = s.incomingWireDualApprovalCents;
        if (s?.releaseDualApprovalCents) this.releaseDual = s.releaseDualApprovalCents;
      }
    }
  }

  /**
   * Opens one live stream on every instance at the same moment, as browsers do when a fresh
   * deployment comes up; once the bank's webhooks exist, saves the alert rule of ALERT_ACCOUNT.
   */
  private async openStreams(op: number) {
    const who: Person = "v1";
    for (let k = 0; k < this.cluster.n; k++) await this.session(op, who, k);
    const cookie = this.people[who].cookie ?? "";
    // Each instance loads the stream's route first (refused without a session), so that the two
    // first streams reach their set-up at the same moment, as two browsers' would on a warm server.
    for (let k = 0; k < this.cluster.n; k++)
      await fetch(`${this.cluster.dashUrl(k)}/api/events`)
        .then((r) => r.text())
        .catch(() => {});
    await Promise.all(
      Array.from({ length: this.cluster.n }, async (_, k) => {
        const ctl = new AbortController();
        this.streams.push(ctl);
        const t0 = Date.now();
        try {
          const res = await fetch(`${this.cluster.dashUrl(k)}/api/events`, {
            headers: { cookie, accept: "text/event-stream" },
            signal: ctl.signal,
          });
          this.history.calls.push({
            op,
            actor: who,
            target: `dashboard${k}`,
            method: "GET",
            path: "/api/events",
            status: res.status,
            t0,
            t1: Date.now(),
          });
          // Drain it in the background; the simulator reads the stored events from the database.
          void (async () => {
            try {
              const reader = res.body?.getReader();
              while (reader && !(await reader.read()).done) {}
            } catch {}
          })();
        } catch {}
      }),
    );
    if (this.alertRuleSaved) return;
    if (this.cluster.bankDbUrl) {
      await this.waitOutboxDrained(15_000);
      const [row] = await this.cluster.bankQuery<{ m: string | null }>("SELECT max(id) AS m FROM outbox");
      this.alertFromOutboxId = Number(row?.m ?? 0);
    }
    const call = await this.dash(
      op,
      "ad1",
      0,
      "PUT",
      `/api/alerts/${this.accounts[ALERT_ACCOUNT]}`,
      {
        below: dollars(ALERT_LINES.belowCents),
        above: dollars(ALERT_LINES.aboveCents),
        notifyUsers: true,
        emails: "",
      },
      { need: "transfer" },
    );
    this.alertRuleSaved = ok(call);
  }

  /** Waits until the bank has no notification left to send (or the time is up). */
  async waitOutboxDrained(timeoutMs: number): Promise<boolean> {
    if (!this.cluster.bankDbUrl) return this.waitDeliveriesSettled(timeoutMs);
    const end = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await this.cluster.bankQuery<{ n: string }>(
        "SELECT count(*) AS n FROM outbox WHERE state = 'pending' AND channel = 'http'",
      );
      if (Number(row.n) === 0) return true;
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * PGlite: the bank's database is its process's alone, so the sandbox's delivery log tells when
   * nothing is left to retry (no attempt pending, and no new attempt for two seconds).
   */
  private async waitDeliveriesSettled(timeoutMs: number): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    let last = -1;
    let quietSince = Date.now();
    while (Date.now() < end) {
      const r = await fetch(`${this.cluster.bankUrl(0)}/sandbox/webhook-deliveries?channel=http`, {
        headers: { [BANK_HEADERS.sandboxKey]: SANDBOX_KEY },
      }).catch(() => null);
      const list = r?.ok ? ((await r.json()) as { state: string }[]) : [];
      const pending = list.some((d) => d.state === "pending");
      if (list.length !== last) {
        last = list.length;
        quietSince = Date.now();
      }
      if (!pending && Date.now() - quietSince > 2000) return true;
      await new Promise((res) => setTimeout(res, 250));
    }
    return false;
  }

  stopStreams() {
    for (const s of this.streams) s.abort();
  }

  tagOf = tagOf;
}
