// The workload: each operation of the schedule (schedule.ts) carried out against the cluster by
// its actor, what was asked and answered recorded in the history and judged by the auditor as it
// answers. Scheduled payments and sweeps are in workload-schedules.ts.
import { generate } from "otplib";
import { maskAccountNumber } from "../lib/format/money.ts";
import {
  eligibleCount,
  idempotentAnswer,
  ineligibleDecision,
  judgeDecision,
  seeClock,
  voteCast,
} from "./auditor.ts";
import { definite, ok } from "./history.ts";
import { dollars, grants, POWERS, pendingOf, type Role, tagOf } from "./model.ts";
import { type Account, INVITEES, type Op, type Person } from "./schedule.ts";
import {
  borrowAttempts,
  followOwnLink,
  removeFactorByLink,
  resetDone,
  resetTookEffect,
  signIn,
  signOut,
} from "./sessions.ts";
import { scheduled } from "./workload-schedules.ts";
import type { World } from "./world.ts";

export async function runOp(world: World, op: Op): Promise<void> {
  const i = op.i;
  // A scene of a person invited earlier in it, whose invitation did not go through: nobody to act.
  for (const k of op.kind === "invite" ? (["who"] as const) : (["who", "target", "as"] as const)) {
    const name = (op as { [key in typeof k]?: unknown })[k];
    if ((INVITEES as readonly unknown[]).includes(name) && !world.people[name as Person]) return;
  }
  switch (op.kind) {
    case "deposit": {
      const r = await world.sandbox(
        op.bank,
        "POST",
        "/sandbox/deposits",
        {
          accountNumber: world.accounts[op.acct],
          amount: dollars(op.cents),
          description: "SIM DEPOSIT",
        },
        i,
      );
      if (ok(r)) world.depositsAck += op.cents;
      else if (!definite(r) || (r.status as number) >= 500) world.depositsMaybe += op.cents;
      return;
    }
    case "sen": {
      const cents = op.size ? await world.sizedFromBalance(i, op) : op.cents;
      if (cents === null) return;
      const over = cents > world.senThreshold;
      const body = {
        idempotencyKey: op.key,
        AccountNumberFrom: world.accounts[op.from],
        AccountNumberTo: world.accounts[op.to],
        Amount: dollars(cents),
      };
      let call = await world.dash(i, op.who, op.inst, "POST", "/api/transfers", body, {
        need: "transfer",
        abortMs: op.abortMs,
      });
      // The answer never came: the same form is submitted again, and must move money once.
      if (op.abortMs !== undefined && !definite(call))
        call = await world.dash(i, op.who, op.inst, "POST", "/api/transfers", body, { need: "transfer" });
      const a = call.answer as { outcome?: string; draft?: { id: string } } | undefined;
      if (ok(call) && a?.outcome === "completed" && over)
        world.violation(
          "release.second-person",
          i,
          `a SEN transfer of $${dollars(cents)} left at once, above the release threshold in force ($${dollars(world.senThreshold)}, as two admins set it)`,
        );
      if (ok(call) && a?.outcome === "draft" && a.draft) {
        // SEN drafts join the drafts approvers release, after the wire drafts the schedule names.
        world.drafts.set(10_000 + i, {
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
      const call = await world.dash(
        i,
        op.who,
        op.inst,
        "POST",
        "/api/wires",
        world.wireBody(op.key, op.from, op.cents),
        {
          need: "transfer",
        },
      );
      if (ok(call))
        world.drafts.set(op.draft, {
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
      const d = world.drafts.get(op.draft);
      if (d?.kind !== "wire") return;
      const got = await world.dash(i, op.who, op.inst, "GET", `/api/drafts/${d.id}`);
      const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
      if (!version) return;
      const call = await world.dash(
        i,
        op.who,
        op.inst,
        "PUT",
        `/api/drafts/${d.id}`,
        {
          version,
          wire: world.wireBody(d.id, d.from as Account, op.cents),
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
      const d = world.releasable(op.draft, i);
      if (!d) return;
      if (op.afterMs) await new Promise((r) => setTimeout(r, op.afterMs));
      const got = await world.dash(i, op.who, op.insts[0], "GET", `/api/drafts/${d.id}`);
      const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
      if (!version) return;
      // What could count if this release decides: the votes so far and its sender, as they stand now.
      if (op.who !== d.preparedBy)
        d.bestEligible = Math.max(
          d.bestEligible,
          eligibleCount(world, [...d.approvers, ...d.unanswered, op.who], "release", d.preparedBy),
        );
      const calls = await Promise.all(
        op.insts.map((inst, k) =>
          world.dash(
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
        voteCast(world, i, op.who, "release", `draft ${d.id}`);
        d.approvers.add(op.who);
        const status = (c.answer as { draft?: { status?: string } } | undefined)?.draft?.status;
        const left = status === "released" || status === "queued";
        if (left) judgeDecision(world, i, d);
        const approved = [...((d.payee && world.payeeApproved.get(d.payee.n)) ?? [])];
        if (left && d.payee && !approved.includes(d.payee.account))
          world.violation(
            "payee.second-person",
            i,
            `draft ${d.id} paid saved beneficiary ${d.payee.n} at account ${d.payee.account}, which no second person approved (approved: ${approved.join(", ") || "none"})`,
          );
        if (left && d.cents > world.releaseDual && d.approvers.size < 2)
          world.violation(
            "release.second-person",
            i,
            `draft ${d.id} of $${dollars(d.cents)} (limit $${dollars(world.releaseDual)}) left with one approver: ${[...d.approvers].join(", ")}`,
          );
      }
      return;
    }
    case "reject": {
      const d = world.releasable(op.draft, i);
      if (!d) return;
      const got = await world.dash(i, op.who, op.inst, "GET", `/api/drafts/${d.id}`);
      const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
      if (!version) return;
      await world.dash(
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
      const r = await world.sandbox<{ payment_id: string; payment_timestamp: string }>(
        op.bank,
        "POST",
        "/sandbox/incoming-wires",
        {
          accountNumber: world.accounts[op.acct],
          amount: dollars(op.cents),
          originatorName: "SIM ORIGINATOR",
          referenceForBeneficiary: `SIMW${op.wire}`,
        },
        i,
      );
      if (!ok(r)) return;
      world.wires.set(op.wire, {
        paymentId: r.answer.payment_id,
        account: world.accounts[op.acct],
        cents: op.cents,
        timestamp: r.answer.payment_timestamp,
        votes: new Set(),
        bestEligible: 0,
        unanswered: new Set(),
      });
      seeClock(world, i, op.bank, r, Date.parse(`${r.answer.payment_timestamp.replace(" ", "T")}Z`));
      return;
    }
    case "decide": {
      const w = world.wires.get(op.wire);
      if (!w) return;
      const queue = await world.dash(i, op.who, op.inst, "GET", "/api/incoming-wires");
      const row = (
        queue.answer as { wires?: { paymentId: string; paymentTimestamp: string }[] } | undefined
      )?.wires?.find((x) => x.paymentId === w.paymentId);
      if (row) w.timestamp = row.paymentTimestamp;
      const vote = op.action !== "cancel";
      if (op.action === "approve")
        w.bestEligible = Math.max(
          w.bestEligible,
          eligibleCount(world, [...w.votes, ...w.unanswered, op.who], "act"),
        );
      const call = await world.dash(
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
        world.decidedUnder.set(w.paymentId, world.dualApproval);
      if (!definite(call) && call.session === "normal" && op.action === "approve") w.unanswered.add(op.who);
      if (!ok(call) || call.session !== "normal" || !vote) return;
      voteCast(world, i, op.who, "act", `incoming wire ${w.paymentId}`);
      if (op.action !== "approve") return;
      w.votes.add(op.who);
      if (outcome === "sent" || outcome === "queued") {
        const required = w.cents > world.dualApproval ? 2 : 1;
        if (w.votes.size >= required && w.bestEligible < required)
          ineligibleDecision(
            world,
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
      await world.sandbox(op.bank, "POST", "/sandbox/wire-system", { status: op.status }, i);
      return;
    case "settle":
      await world.sandbox(op.bank, "POST", "/sandbox/settle", {}, i);
      return;
    case "clock": {
      const r = await world.sandbox<{ now: string }>(
        op.bank,
        "POST",
        "/sandbox/clock",
        { advanceSeconds: op.seconds },
        i,
      );
      if (ok(r)) seeClock(world, i, op.bank, r, Date.parse(r.answer.now));
      return;
    }
    case "v2": {
      const body = {
        AccountNumberFrom: world.accounts[op.from],
        AccountNumberTo: world.accounts[op.to],
        Amount: Number(dollars(op.cents)),
      };
      if (body.AccountNumberFrom === body.AccountNumberTo) return;
      world.v2Answers.set(op.key, { body, op: i });
      const calls = await Promise.all(
        Array.from({ length: op.copies }, () => world.v2Transfer(i, op.bank, body, op.key)),
      );
      for (const c of calls) idempotentAnswer(world, i, op.key, c);
      return;
    }
    case "v2replay": {
      const of = world.schedule[op.of];
      if (of?.kind !== "v2") return;
      const rec = world.v2Answers.get(of.key);
      if (!rec) return;
      const call = await world.v2Transfer(i, op.bank, rec.body, of.key);
      idempotentAnswer(world, i, of.key, call);
      return;
    }
    case "settings":
      return world.changeSetting(i, op.who, op.inst, op.setting, op.cents);
    case "approveChanges":
      return world.approveChanges(i, op.who, op.inst);
    case "role": {
      const t = world.people[op.target];
      const call = await world.asAdmin(i, op, "PATCH", `/api/admin/users/${t.id}`, { role: op.role });
      if (!ok(call)) return;
      if (pendingOf(call)) return;
      if (grants(t.role, op.role))
        world.violation(
          "control.one-admin",
          i,
          `${op.who} alone made ${op.target} ${op.role} (was ${t.role}), in force at once`,
        );
      t.role = op.role;
      return;
    }
    case "disable": {
      const t = world.people[op.target];
      const call = await world.asAdmin(i, op, "PATCH", `/api/admin/users/${t.id}`, {
        disabled: op.disabled,
      });
      if (!ok(call) || pendingOf(call)) return;
      if (!op.disabled && t.disabled && POWERS[t.role].length)
        world.violation(
          "control.one-admin",
          i,
          `${op.who} alone enabled ${op.target} (${t.role}) again, in force at once`,
        );
      t.disabled = op.disabled;
      return;
    }
    case "reset": {
      const t = world.people[op.target];
      const call = await world.asAdmin(i, op, "POST", `/api/admin/users/${t.id}/reset-password`);
      const temp = (call.answer as { temporaryPassword?: string } | undefined)?.temporaryPassword;
      // No administrator may receive a password: a reset e-mails a one-time link to its person.
      if (ok(call) && temp)
        world.violation(
          "control.one-admin",
          i,
          `${op.who} reset the password of ${op.target} (${t.role}) and received a working temporary password`,
        );
      if (ok(call) && !pendingOf(call)) await resetDone(world, op.target, i);
      return;
    }
    case "takeOver": {
      const t = world.people[op.target];
      const before = t.password;
      const call = await world.asAdmin(i, op, "POST", `/api/admin/users/${t.id}/reset-password`);
      const effect = ok(call) && !pendingOf(call);
      if (effect) resetTookEffect(world, op.target);
      // The old password once the reset is in force (before it, it is still the person's own).
      await borrowAttempts(world, i, op.who, op.target, op.inst, call, effect ? [before] : []);
      if (effect) await followOwnLink(world, op.target, "reset", i);
      return;
    }
    case "invite": {
      if (world.people[op.target]) return;
      const email = `${op.target}@sim.example`;
      // A password of the admin's choosing sent along: the product must not take it.
      const chosen = `Rogue-${op.who}-${op.target}-${i}-password`;
      const call = await world.asAdmin(i, op, "POST", "/api/admin/users", {
        email,
        name: `Sim ${op.target}`,
        role: op.role,
        password: chosen,
      });
      const user = (call.answer as { user?: { id?: string; role?: Role } } | undefined)?.user;
      if (!ok(call) || !user?.id) return;
      const role = user.role ?? "viewer";
      if (!pendingOf(call) && grants("viewer", role))
        world.violation(
          "control.one-admin",
          i,
          `${op.who} alone invited ${op.target} as ${role}, in force at once`,
        );
      world.people[op.target] = {
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
      await borrowAttempts(world, i, op.who, op.target, op.inst, call, [chosen]);
      await followOwnLink(world, op.target, "invite", i);
      return;
    }
    case "borrowedRelease": {
      const cookie = world.borrowed.get(`${op.who}>${op.as}`);
      const d = world.releasable(op.draft, i);
      if (!cookie || !d) return;
      const borrowed = { op: i, actor: op.who, session: `as ${op.as}`, target: `dashboard${op.inst}` };
      const url = `${world.cluster.dashUrl(op.inst)}/api/drafts/${d.id}`;
      const got = await world.history.call(
        { ...borrowed, method: "GET", path: `/api/drafts/${d.id}` },
        { url, headers: { cookie } },
      );
      const version = (got.answer as { draft?: { version: number } } | undefined)?.draft?.version;
      if (!version) return;
      const call = await world.history.call(
        { ...borrowed, method: "POST", path: `/api/drafts/${d.id}/release`, body: { version } },
        { url: `${url}/release`, headers: { cookie } },
      );
      if (!ok(call)) return;
      world.violation("session.own-person", i, `${op.who} released draft ${d.id} as ${op.as}`);
      d.approvers.add(op.as);
      const status = (call.answer as { draft?: { status?: string } } | undefined)?.draft?.status;
      if (status === "released" || status === "queued") judgeDecision(world, i, d);
      return;
    }
    case "signIn": {
      const p = world.people[op.who];
      if (p.disabled) return;
      // Another sign-in (a second browser) leaves the first session as it was.
      await signIn(world, i, op.who, op.inst);
      return;
    }
    case "signOut":
      return signOut(world, i, op.who, op.inst);
    case "replayRevoked": {
      const p = world.people[op.who];
      const cookie = p.revoked.at(-1);
      if (!cookie) return;
      await world.dash(
        i,
        op.who,
        op.inst,
        "POST",
        "/api/transfers",
        {
          idempotencyKey: op.key,
          AccountNumberFrom: world.accounts[op.from],
          AccountNumberTo: world.accounts[op.to],
          Amount: dollars(op.cents),
        },
        { need: "transfer", cookie, sessionLabel: "signed out" },
      );
      return;
    }
    case "factorOn": {
      const p = world.people[op.who];
      const start = await world.dash(i, op.who, op.inst, "POST", "/api/profile/totp", {
        currentPassword: p.password,
      });
      const secret = (start.answer as { secret?: string } | undefined)?.secret;
      if (!ok(start) || !secret) return;
      const done = await world.dash(i, op.who, op.inst, "POST", "/api/profile/totp/confirm", {
        code: await generate({ secret }),
      });
      if (ok(done)) p.totpSecret = secret;
      return;
    }
    case "factorRemoval": {
      const t = world.people[op.target];
      if (!t.totpSecret) return;
      await world.asAdmin(i, op, "POST", `/api/admin/users/${t.id}/remove-second-factor`);
      return;
    }
    case "factorLink":
      return removeFactorByLink(world, op.who, op.inst, i);
    case "changePassword": {
      const p = world.people[op.who];
      if (!p.cookie) await signIn(world, i, op.who, op.inst);
      if (!p.cookie) return;
      const next = `Sim-${op.who}-password-${String(++world.pwCounter).padStart(4, "0")}x`;
      const call = await world.dash(i, op.who, op.inst, "POST", "/api/profile/password", {
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
      const call = await world.dash(
        i,
        op.who,
        op.inst,
        "POST",
        "/api/webhooks",
        {
          accountNumber: world.accounts[op.acct],
          url: `${world.cluster.sink.url()}/hook/${i}`,
          description: "SIM SINK",
        },
        { need: "admin" },
      );
      const id = (call.answer as { webhook?: { id: string } } | undefined)?.webhook?.id;
      if (ok(call) && id) world.sinkHooks.add(id);
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
      const id = world.payees.get(op.payee);
      if (!world.payeeProposed.has(op.payee)) world.payeeProposed.set(op.payee, new Set());
      world.payeeProposed.get(op.payee)?.add(op.account);
      const call = id
        ? await world.dash(i, op.who, op.inst, "PUT", `/api/beneficiaries/${id}`, body, { need: "transfer" })
        : await world.dash(i, op.who, op.inst, "POST", "/api/beneficiaries", body, { need: "transfer" });
      const made = (call.answer as { beneficiary?: { id: string } } | undefined)?.beneficiary?.id;
      if (ok(call) && made) {
        world.payees.set(op.payee, made);
        // Approved or not, it waits for a second person in the model: only an approval by
        // someone else makes it the account money may go to.
        world.payeePending.set(op.payee, op.account);
      }
      return;
    }
    case "payeeApprove": {
      const id = world.payees.get(op.payee);
      const account = world.payeePending.get(op.payee);
      if (!id || !account) return;
      const list = await world.dash(i, op.who, op.inst, "GET", "/api/beneficiaries");
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
      const call = await world.dash(
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
      if (ok(call) && change.changedBy?.email !== world.people[op.who].email) {
        // The account the approver was shown. A change whose answer was lost (the instance died
        // after saving it) can be the one waiting: it counts when the simulator did ask for that
        // account; one it never asked for stays unapproved in the model, and paying it is a finding.
        // The page masks account numbers: the one asked for that the mask fits, if one alone does.
        const shown = change.fields?.find((f) => f.field === "beneficiary_account_number")?.after;
        const fits = [...(world.payeeProposed.get(op.payee) ?? [])].filter(
          (a) => shown !== undefined && maskAccountNumber(a) === shown,
        );
        const approved = world.payeeApproved.get(op.payee) ?? new Set<string>();
        approved.add(fits.length === 1 ? fits[0] : account);
        world.payeeApproved.set(op.payee, approved);
        world.payeePending.delete(op.payee);
      }
      return;
    }
    case "payeeWire": {
      const id = world.payees.get(op.payee);
      if (!id) return;
      const list = await world.dash(i, op.who, op.inst, "GET", "/api/beneficiaries");
      type Listed = { id: string; fields: Record<string, string> };
      const b = (list.answer as { beneficiaries?: Listed[] } | undefined)?.beneficiaries?.find(
        (x) => x.id === id,
      );
      if (!b) return;
      const body = {
        ...world.wireBody(op.key, "A0", op.cents),
        ...b.fields,
        beneficiaryId: id,
        originator_to_beneficiary_info: tagOf(op.key),
      };
      const call = await world.dash(i, op.who, op.inst, "POST", "/api/wires", body, { need: "transfer" });
      if (ok(call))
        world.drafts.set(op.draft, {
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
      world.cluster.sink.mode = op.mode;
      return;
    case "bankPath":
      world.cluster.bankPaths[op.index].mode = op.mode;
      return;
    case "read":
      await world.dash(i, op.who, op.inst, "GET", "/api/accounts");
      return;
    case "receiverMode":
      world.cluster.receiver.mode = op.mode;
      return;
    case "streams":
      return world.openStreams(i);
    case "kill":
      await world.cluster.killAndRestart(op.target, op.index);
      world.kills++;
      if (op.target === "bank") world.clientToken = null;
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
      return scheduled(world, op);
  }
}
