// The world the simulator acts in: the cluster's banks and dashboards, the model's state (model.ts),
// and the calls every actor makes through it: a person's dashboard call with their session, the
// integrating client's /v2 calls with its own key and Idempotency-Key reuse, and the outside world's
// /sandbox calls (deposits, incoming wires, outages, the clock). The operations themselves are the
// workload (workload.ts, workload-schedules.ts), sessions and credentials are in sessions.ts, and
// what is judged as answers arrive is the auditor (auditor.ts).
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import { openDashboardDb } from "../lib/db/client.ts";
import { OPEN_OCCURRENCE_STATUSES, sqlWords } from "../lib/schedules/states.ts";
import { type Cluster, SANDBOX_KEY } from "./cluster.ts";
import { type Call, History, ok } from "./history.ts";
import {
  type ClockSeen,
  type DraftState,
  dollars,
  outOfBand,
  PERMS,
  type PersonState,
  type Role,
  RUNS_SETTLE_MS,
  type SeriesModel,
  type SweepLook,
  type SweepModel,
  tagOf,
  type Violation,
  type WireState,
} from "./model.ts";
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
  OPENING_CENTS,
  type Op,
  PEOPLE,
  type Person,
  SWEEP_ACCOUNTS,
  SWEEP_OPENING_CENTS,
} from "./schedule.ts";
import { resetDone, session } from "./sessions.ts";

export class World {
  readonly history = new History();
  readonly violations: Violation[] = [];
  readonly people = {} as Record<Person, PersonState>;
  readonly accounts = {} as Record<Account, string>;
  clientKey = "";
  clientToken: string | null = null;
  readonly drafts = new Map<number, DraftState>();
  readonly wires = new Map<number, WireState>();
  readonly sinkHooks = new Set<string>();
  /** Saved beneficiaries the schedule names, by their number. */
  readonly payees = new Map<number, string>();
  /**
   * Per payee: every account a second person approved (a wire drafted while one was current may be
   * released after a later change is approved, and still pays an approved account), and the one
   * waiting for approval.
   */
  readonly payeeApproved = new Map<number, Set<string>>();
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
  pwCounter = 0;
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

  async sandbox<T>(
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

  // Calls as a person -----------------------------------------------------------------------

  /** Why the person's session must be refused a state change now, or null. */
  mustRefuse(who: Person, need: keyof typeof PERMS): string | null {
    const p = this.people[who];
    if (p.disabled) return "the user is disabled";
    if (p.temporary) return "the session waits for a password change";
    if (!PERMS[need].includes(p.role)) return `the role ${p.role} lacks the permission`;
    return null;
  }

  /** A dashboard call with the person's session; a 2xx on a call that must be refused is a violation. */
  /** An administrator's call from the operation's person and instance. */
  asAdmin(i: number, op: { who: Person; inst: number }, method: string, path: string, body?: unknown) {
    return this.dash(i, op.who, op.inst, method, path, body, { need: "admin" });
  }

  /**
   * What a sized transfer asks for: the available balance of its account as the person reads it
   * on the accounts page just before (`all`), or 1 to 100 cents more (`over`); null when the read
   * failed (the person does not send).
   */
  async sizedFromBalance(
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

  async dash(
    op: number,
    who: Person,
    inst: number,
    method: string,
    path: string,
    body?: unknown,
    o: { need?: keyof typeof PERMS; abortMs?: number; cookie?: string; sessionLabel?: string } = {},
  ): Promise<Call> {
    const cookie = o.cookie ?? (await session(this, op, who, inst)) ?? "";
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

  tokenRun: Promise<string | null> | null = null;

  /** The client's token: one request for all its callers at once (the bank issues one a second). */
  v2Token(bank: number, op: number): Promise<string | null> {
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

  async v2Transfer(op: number, bank: number, body: unknown, key: string): Promise<Call> {
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

  // Schedules and sweeps ------------------------------------------------------------------------

  /** The bank's business date, heard afresh through any bank that answers. */
  async bankToday(op: number, first = 0): Promise<string> {
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

  releasable(n: number, op: number): DraftState | undefined {
    // A release names a wire draft of the schedule, or (beyond them) a SEN draft made since.
    const d = this.drafts.get(n);
    if (d) return d;
    const sen = [...this.drafts.entries()].filter(([k]) => k >= 10_000);
    return sen.length ? sen[(n + op) % sen.length][1] : undefined;
  }

  wireBody(key: string, from: Account, cents: number) {
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

  async changeSetting(op: number, who: Person, inst: number, setting: string, cents: number) {
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

  async approveChanges(op: number, who: Person, inst: number) {
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
      if (c.kind === "user.password_reset" && person) await resetDone(this, person, op);
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
  async openStreams(op: number) {
    const who: Person = "v1";
    for (let k = 0; k < this.cluster.n; k++) await session(this, op, who, k);
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
  async waitDeliveriesSettled(timeoutMs: number): Promise<boolean> {
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
