// Who sees what in the approvals inbox, and what a bulk action does to each kind of item: the
// rules the page and the digest share (lib/inbox/read.ts, components/inbox/inbox-view.tsx).
import { describe, expect, it } from "vitest";

import { planInboxAction as plan } from "../../lib/approvals/draft-rules.ts";
import type { IncomingWire } from "../../lib/dashboard-api/incoming-wires.ts";
import type { Draft } from "../../lib/dashboard-api/wires.ts";
import { actionableFor, type Waiting } from "../../lib/inbox/read.ts";

const person = (id: string) => ({ id, email: `${id}@example.com` });

function draft(id: string, preparer: string, extra: Partial<Draft> = {}): Draft {
  return {
    id,
    kind: "wire",
    status: "pending",
    version: 1,
    fromAccount: "1000000001",
    amountCents: 10_000,
    counterparty: `PAYEE ${id}`,
    request: {},
    preparedBy: person(preparer),
    preparedAt: `2026-11-26T10:00:0${id.length}Z`,
    decidedBy: null,
    decidedAt: null,
    rejectReason: null,
    paymentId: null,
    bankAnswer: null,
    channel: null,
    approvals: [],
    approvalsRequired: 1,
    ...extra,
  };
}

function wire(paymentId: string, extra: Partial<IncomingWire> = {}): IncomingWire {
  return {
    paymentId,
    accountNumber: "1000000001",
    accountName: "OPERATING",
    amountCents: 20_000,
    originatorName: `ORIG ${paymentId}`,
    originatorAccount: "",
    sendingBankName: "",
    sendingBankId: "",
    info: "",
    reference: "",
    receivedAt: "2026-11-26T09:00:00.000Z",
    paymentTimestamp: "2026-11-26 09:00:00.000",
    state: "pending",
    needsTwoApprovers: false,
    approvalsRequired: 1,
    approvalPolicy: "Incoming wires: 1 approver",
    votes: [],
    pendingAction: null,
    ...extra,
  };
}

const waiting: Waiting = {
  drafts: [
    draft("mine", "ann"),
    draft("theirs", "bob"),
    draft("approved-by-ann", "bob", {
      approvals: [{ id: "ann", email: "ann@example.com", at: "2026-11-26T10:05:00Z" }],
      approvalsRequired: 2,
    }),
  ],
  wires: [
    wire("W1"),
    wire("W2", {
      state: "awaiting_second_approval",
      needsTwoApprovers: true,
      votes: [{ userId: "ann", userEmail: "ann@example.com", action: "approve", at: "2026-11-26T10:00:00Z" }],
    }),
    wire("W3", { state: "queued", pendingAction: "approve" }),
  ],
  asOf: "2026-11-26T10:10:00Z",
};

describe("the approvals inbox", () => {
  it("never lists a person's own draft, one they approved, a wire they voted on, or a wire waiting for the bank", () => {
    const keys = actionableFor({ id: "ann", role: "approver" }, waiting).map((i) => i.key);
    expect(keys).toEqual(["wire:W1", "draft:theirs"]);
  });

  it("lists for another approver what the first one already acted on", () => {
    const keys = actionableFor({ id: "cat", role: "approver" }, waiting).map((i) => i.key);
    expect(keys.sort()).toEqual([
      "draft:approved-by-ann",
      "draft:mine",
      "draft:theirs",
      "wire:W1",
      "wire:W2",
    ]);
  });

  it("lists nothing for a preparer or a viewer", () => {
    expect(actionableFor({ id: "bob", role: "preparer" }, waiting)).toEqual([]);
    expect(actionableFor({ id: "vic", role: "viewer" }, waiting)).toEqual([]);
  });

  it("says what each action does to each kind, and leaves out a draft from a return", () => {
    const [w1, d] = actionableFor({ id: "ann", role: "approver" }, waiting);
    expect(plan(d, "approve")).toEqual({ fits: true, words: "Release: send it to the bank" });
    expect(plan(d, "cancel")).toEqual({ fits: true, words: "Reject the draft" });
    expect(plan(d, "return")).toEqual({ fits: false, why: "a draft is rejected, not returned" });
    expect(plan(w1, "return")).toEqual({ fits: true, words: "Return the wire" });
    const [twoNeeded] = actionableFor(
      { id: "ann", role: "approver" },
      { ...waiting, drafts: [draft("big", "bob", { approvalsRequired: 2 })], wires: [] },
    );
    expect(plan(twoNeeded, "approve")).toEqual({
      fits: true,
      words: "Approve (first of two): nothing is sent yet",
    });
  });

  it("counts the approvers an incoming wire's policy asks for, struck votes aside", () => {
    const needs = (approvalsRequired: number, votes: IncomingWire["votes"] = []) =>
      plan(
        {
          kind: "incoming_wire",
          wire: wire("I1", { needsTwoApprovers: approvalsRequired > 1, approvalsRequired, votes }),
        },
        "approve",
      );
    const vote = (userId: string, ineligible?: string) => ({
      userId,
      userEmail: `${userId}@example.com`,
      action: "approve" as const,
      at: "2026-11-26T10:00:00.000Z",
      ...(ineligible ? { ineligible } : {}),
    });
    expect(needs(1)).toEqual({ fits: true, words: "Approve the wire" });
    expect(needs(2)).toEqual({ fits: true, words: "Approve (first of two approvers)" });
    expect(needs(2, [vote("a")])).toEqual({ fits: true, words: "Approve the wire" });
    expect(needs(3)).toEqual({ fits: true, words: "Approve (first of three approvers)" });
    expect(needs(3, [vote("a")])).toEqual({ fits: true, words: "Approve (second of three approvers)" });
    expect(needs(3, [vote("a"), vote("b")])).toEqual({ fits: true, words: "Approve the wire" });
    expect(needs(3, [vote("a", "is disabled"), vote("b")])).toEqual({
      fits: true,
      words: "Approve (second of three approvers)",
    });
  });
});
