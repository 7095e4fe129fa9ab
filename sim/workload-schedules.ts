// The workload of scheduled payments and sweeps (runs with --days): people set up, approve,
// edit, skip, pause, resume and cancel series and sweeps, and the bank's clock advances through
// business days while both dashboards' runners pay and move.
import { isBusinessDay } from "../lib/bank-api/business-days.ts";
import { isLiveSeries } from "../lib/schedules/states.ts";
import { seeClock } from "./auditor.ts";
import { type Call, definite, ok } from "./history.ts";
import { dollars, type SeriesModel, type SeriesSeen, termsKey } from "./model.ts";
import type { Account, Op, Person } from "./schedule.ts";
import type { World } from "./world.ts";

/** A form sent again while no answer came (the same key: the product makes one series or sweep). */
export async function submit(
  world: World,
  op: number,
  who: Person,
  inst: number,
  path: string,
  body: unknown,
): Promise<Call> {
  let call = await world.dash(op, who, inst, "POST", path, body, { need: "transfer" });
  for (let k = 0; k < 3 && !definite(call); k++)
    call = await world.dash(op, who, inst, "POST", path, body, { need: "transfer" });
  return call;
}

export async function scheduled(
  world: World,
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
  switch (op.kind) {
    case "series": {
      const startsOn = await world.bankToday(i);
      const pattern =
        op.pattern.kind === "weekly"
          ? { kind: "weekly", everyWeeks: 1, weekday: op.pattern.weekday }
          : { kind: "monthly-day", day: op.pattern.day };
      const schedule = { startsOn, pattern, count: null, until: null, roll: "following" };
      const payee = op.rail === "wire" ? (op.payee ?? "") : world.accounts[op.to];
      const call = await submit(
        world,
        i,
        op.who,
        op.inst,
        "/api/schedules",
        seriesBody(world, op.rail, `Sim series ${op.series}`, schedule, op.key, op.from, payee, op.cents),
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
      world.series.set(op.series, m);
      seeSeries(m, s);
      return;
    }
    case "seriesEdit": {
      const m = world.series.get(op.series);
      if (!m) return;
      const got = await world.dash(i, op.who, op.inst, "GET", `/api/schedules/${m.id}`);
      const before = (got.answer as SeriesAnswer | undefined)?.series;
      if (!ok(got) || !before || !isLiveSeries(before.status)) return;
      const cents = op.change === "amount" ? op.cents : m.cents;
      const payee = op.change !== "payee" ? m.payee : m.rail === "wire" ? op.payee : world.accounts[op.to];
      if (op.change === "payee" && m.rail === "sen" && (op.to === m.from || payee === m.payee)) return;
      const name = op.change === "rename" ? `Sim series ${op.series} (renamed at op ${i})` : before.name;
      const call = await world.dash(
        i,
        op.who,
        op.inst,
        "PUT",
        `/api/schedules/${m.id}`,
        {
          version: before.version,
          ...seriesBody(world, m.rail, name, before.schedule, m.key, m.from, payee, cents),
        },
        { need: "transfer" },
      );
      const after = (call.answer as SeriesAnswer | undefined)?.series;
      if (!ok(call) || !after) {
        // No answer: what the product holds decides the model (the edit may have landed).
        const now = await world.dash(i, "v1", op.inst, "GET", `/api/schedules/${m.id}`);
        const s = (now.answer as SeriesAnswer | undefined)?.series;
        if (s && s.version !== m.version && s.amountCents === cents) {
          Object.assign(m, {
            version: s.version,
            cents,
            payee,
            ...(op.change === "payee" ? { to: op.to } : {}),
          });
          seeSeries(m, s);
        }
        return;
      }
      world.seriesEdits[op.change]++;
      // A new amount or payee is approved anew: a higher version with no approval of its own;
      // a new name keeps the version and what approved it.
      const raised = after.version > before.version && after.approvals.length === 0;
      const kept = after.version === before.version && after.approved === before.approved;
      if (op.change === "rename" ? !kept : !raised)
        world.violation(
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
      seeSeries(m, after);
      return;
    }
    case "seriesApprove": {
      const m = world.series.get(op.series);
      if (!m) return;
      const call = await world.dash(
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
        seeSeries(m, s);
      } else if (!definite(call)) {
        // No answer: the approval may have landed; the product's next answer says.
        const now = await world.dash(i, "v1", op.inst, "GET", `/api/schedules/${m.id}`);
        const seen = (now.answer as SeriesAnswer | undefined)?.series;
        if (seen) seeSeries(m, seen);
      }
      return;
    }
    case "seriesStatus": {
      const m = world.series.get(op.series);
      if (!m) return;
      const day = await world.bankToday(i);
      const call = await world.dash(
        i,
        op.who,
        op.inst,
        "POST",
        `/api/schedules/${m.id}/status`,
        { action: op.action },
        { need: "transfer" },
      );
      // What the product holds now, whatever the answer said (or whether one came).
      const status = world.cluster.bankDbUrl
        ? (
            await world.cluster.dashQuery<{ status: string }>(
              "SELECT status FROM payment_series WHERE id = $1",
              [m.id],
            )
          )[0]?.status
        : (call.answer as SeriesAnswer | undefined)?.series?.status;
      if (status && status !== m.changes[m.changes.length - 1].status) m.changes.push({ day, status });
      return;
    }
    case "skip": {
      const m = world.series.get(op.series);
      if (!m) return;
      const today = await world.bankToday(i);
      const read = await world.dash(i, op.who, op.inst, "GET", "/api/schedules");
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
      const call = await world.dash(
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
      const call = await submit(world, i, op.who, op.inst, "/api/schedules/sweeps", {
        idempotencyKey: op.key,
        name: `Sim sweep ${op.sweep}`,
        account: world.accounts[op.account],
        fundingAccount: world.accounts[op.funding],
        lowCents: op.lowCents,
        highCents: op.highCents,
        // Every business day's run, whatever the time of day the bank's clock shows.
        runAt: "00:00",
      });
      const s = (call.answer as SweepAnswer | undefined)?.sweep;
      if (!ok(call) || !s) return;
      world.sweeps.set(op.sweep, {
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
      const m = world.sweeps.get(op.sweep);
      if (!m) return;
      const s = await sweepAction(world, i, op, m.id, "approve", { version: m.version }, "release");
      if (s) Object.assign(m, { version: s.version, approved: s.approved, status: s.status });
      return;
    }
    case "sweepStatus": {
      const m = world.sweeps.get(op.sweep);
      if (!m) return;
      const s = await sweepAction(world, i, op, m.id, "status", { action: op.action }, "transfer");
      if (s) m.status = s.status;
      else if (world.cluster.bankDbUrl)
        m.status =
          (
            await world.cluster.dashQuery<{ status: string }>("SELECT status FROM sweeps WHERE id = $1", [
              m.id,
            ])
          )[0]?.status ?? m.status;
      return;
    }
    case "advance": {
      // What the Scheduled page calls approved before the days pass (a change of the policy by
      // the admins may approve a version no approval answered).
      const page = await world.dash(i, "v1", op.bank % world.cluster.n, "GET", "/api/schedules");
      const listed = (page.answer as { series?: SeriesSeen[] } | undefined)?.series ?? [];
      for (const m of world.series.values()) {
        const seen = listed.find((x) => x.id === m.id);
        if (seen) seeSeries(m, seen);
      }
      for (let d = 0; d < op.days; d++) {
        // A day at a time until the bank's date is a business day (weekends and holidays pass).
        for (let k = 0; k < 10; k++) {
          const r = await world.sandbox<{ now: string; businessDate: string }>(
            op.bank,
            "POST",
            "/sandbox/clock",
            { advanceSeconds: 86_400 },
            i,
          );
          if (ok(r)) {
            seeClock(world, i, op.bank, r, Date.parse(r.answer.now));
            world.bankDate = r.answer.businessDate;
          } else await world.bankToday(i, op.bank + 1);
          if (ok(r) && isBusinessDay(world.bankDate)) break;
        }
        await world.afterRuns(i, world.bankDate);
      }
      return;
    }
  }
}

/** The schedule form's body: a SEN transfer to the account `payee`, or a wire to the beneficiary account `payee`. */
export function seriesBody(
  world: World,
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
          AccountNumberFrom: world.accounts[from],
          AccountNumberTo: payee,
          Amount: dollars(cents),
        },
      }
    : {
        kind: "wire",
        name,
        schedule,
        wire: {
          ...world.wireBody(key, from, cents),
          beneficiary_account_number: payee,
          originator_to_beneficiary_info: "SIM SERIES",
        },
      };
}

/** The series' terms are approved when an answer says so of the version the model holds. */
export function seeSeries(m: SeriesModel, s: SeriesSeen) {
  if (s.approved && s.version === m.version && s.amountCents === m.cents)
    m.approvedTerms.add(termsKey(m.cents, m.payee));
}

type SweepAnswer = { sweep?: { id: string; version: number; status: string; approved: boolean } };

/** A POST to one of a sweep's own routes (`approve`, `status`) as `op.who`: the sweep it answered, if it succeeded. */
async function sweepAction(
  world: World,
  i: number,
  op: { who: Person; inst: number },
  id: string,
  route: "approve" | "status",
  body: unknown,
  need: "release" | "transfer",
): Promise<SweepAnswer["sweep"]> {
  const call = await world.dash(i, op.who, op.inst, "POST", `/api/schedules/sweeps/${id}/${route}`, body, {
    need,
  });
  return ok(call) ? (call.answer as SweepAnswer | undefined)?.sweep : undefined;
}
