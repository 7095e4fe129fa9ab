// What a screen says a payment needs is what the server's evaluator decides: the transfer form's
// hint asks the policies in force and today's totals (not the old fixed threshold), and the inbox
// counts an incoming wire's votes against the approvers its policy requires, struck votes aside.
import { describe, expect, it } from "vitest";

import { CREDENTIAL_WORDS, credentialEventWords } from "../../components/admin/pending-changes.tsx";
import { statusOf } from "../../components/inbox/inbox-table.tsx";
import { senTransferNeeds } from "../../components/send-money/sen-transfer-form.tsx";
import { approveLabel, notYetSendingWords, stillNeededWords } from "../../lib/approvals/draft-rules.ts";
import { defaultPolicies, type PolicySet } from "../../lib/approvals/policy.ts";
import { CREDENTIAL_ACTIONS } from "../../lib/auth/credential-links.ts";
import type { IncomingWire } from "../../lib/dashboard-api/incoming-wires.ts";

const thresholds = {
  senReleaseThresholdCents: 25_000_000,
  releaseDualApprovalCents: 100_000_000,
  incomingWireDualApprovalCents: 100_000_000,
};
const nothingToday = { byPreparerCents: 0, byAccountCents: {} };

describe("the transfer form's hint", () => {
  it("follows a stated policy below the old release threshold", () => {
    const policies: PolicySet = {
      ...defaultPolicies(thresholds),
      policies: [
        {
          id: "small",
          name: "SEN transfers over $100.00",
          when: { rails: ["sen"], aboveCents: 10_000 },
          approvers: 1,
        },
      ],
    };
    const o = { policies, preparerId: "p1", today: nothingToday };
    expect(senTransferNeeds(50_000, "2000001", o)).toMatchObject({
      approvers: 1,
      why: "SEN transfers over $100.00: 1 approver",
    });
    expect(senTransferNeeds(9_000, "2000001", o).approvers).toBe(0);
  });

  it("makes a small transfer a draft past the preparer's or the account's daily total", () => {
    const policies = defaultPolicies(thresholds);
    const byMe = { policies, preparerId: "p1", today: { byPreparerCents: 99_990_000, byAccountCents: {} } };
    expect(senTransferNeeds(20_000, "2000001", byMe)).toMatchObject({
      approvers: 1,
      why: expect.stringMatching(/daily total .* for one preparer/),
    });
    const byAccount = {
      policies,
      preparerId: "p1",
      today: { byPreparerCents: 0, byAccountCents: { "2000001": 499_990_000 } },
    };
    expect(senTransferNeeds(20_000, "2000001", byAccount).approvers).toBe(1);
    expect(senTransferNeeds(20_000, "2000002", byAccount).approvers).toBe(0);
  });
});

describe("the inbox's status of an incoming wire", () => {
  const wire = (extra: Partial<IncomingWire>): IncomingWire => ({
    paymentId: "P1",
    accountNumber: "1000000001",
    accountName: "OPERATING",
    amountCents: 500_000_000,
    originatorName: "ORIG",
    originatorAccount: "",
    sendingBankName: "",
    sendingBankId: "",
    info: "",
    reference: "",
    receivedAt: "2026-11-26T09:00:00.000Z",
    paymentTimestamp: "2026-11-26 09:00:00.000",
    state: "awaiting_second_approval",
    needsTwoApprovers: true,
    approvalsRequired: 3,
    approvalPolicy: "Incoming wires over $1,000,000.00: 3 approvers",
    votes: [],
    pendingAction: null,
    ...extra,
  });
  const item = (w: IncomingWire) =>
    ({
      kind: "incoming_wire",
      key: `wire:${w.paymentId}`,
      waitingSince: w.receivedAt,
      amountCents: w.amountCents,
      wire: w,
    }) as const;
  const vote = (userId: string, ineligible?: string) => ({
    userId,
    userEmail: `${userId}@example.com`,
    action: "approve" as const,
    at: "2026-11-26T10:00:00.000Z",
    ...(ineligible ? { ineligible } : {}),
  });

  it("counts only the votes that still count, against what the policy requires", () => {
    const w = wire({ votes: [vote("a"), vote("b", "b@example.com is disabled")] });
    expect(statusOf(item(w))[0]).toBe("1 of 3 approvers");
    expect(statusOf(item(wire({ state: "pending", votes: [] })))[0]).toBe("Needs 3 approvers");
  });
});

describe("the words of a draft that needs several approvers", () => {
  const draft = (approvalsRequired: number, approvals: { id: string; ineligible?: string }[] = []) => ({
    status: "pending" as const,
    preparedBy: { id: "prep" },
    approvals,
    approvalsRequired,
  });

  it("keeps the two-approver words and counts three where a policy asks for three", () => {
    expect(approveLabel(draft(2), "a")).toBe("Approve (first of two)");
    expect(notYetSendingWords(draft(2), "a")).toBe(
      "Your approval is the first of two: nothing is sent until a second approver approves.",
    );
    expect(stillNeededWords(draft(2))).toBe("Needs two approvers; the second approval sends it.");
    expect(stillNeededWords(draft(2, [{ id: "a" }]))).toBe(
      "The next approval, by another approver, sends it.",
    );

    expect(approveLabel(draft(3), "a")).toBe("Approve (first of three)");
    expect(notYetSendingWords(draft(3), "a")).toBe(
      "Your approval is the first of three: nothing is sent until two more approvers approve.",
    );
    expect(stillNeededWords(draft(3))).toBe("Needs three approvers; the third approval sends it.");
    expect(approveLabel(draft(3, [{ id: "a" }]), "b")).toBe("Approve (second of three)");
    expect(notYetSendingWords(draft(3, [{ id: "a" }]), "b")).toBe(
      "Your approval is the second of three: nothing is sent until another approver approves.",
    );
    expect(stillNeededWords(draft(3, [{ id: "a" }]))).toBe(
      "Two more approvals, by other approvers, send it.",
    );
  });

  it("does not count a struck vote toward a vote's place", () => {
    const d = draft(3, [{ id: "a", ineligible: "is disabled" }, { id: "b" }]);
    expect(approveLabel(d, "c")).toBe("Approve (second of three)");
    expect(stillNeededWords(d)).toBe("Two more approvals, by other approvers, send it.");
  });
});

describe("the credential history a second administrator reads", () => {
  it("has words for every credential action, and says what a one-time link was for", () => {
    for (const action of CREDENTIAL_ACTIONS) expect(CREDENTIAL_WORDS[action], action).toBeTruthy();
    expect(
      credentialEventWords({ action: "credential_link.issue", detail: { purpose: "totp_removal" } }),
    ).toBe("One-time link e-mailed (removing the second factor)");
    expect(credentialEventWords({ action: "user.password_reset", detail: null })).toBe("Password reset");
  });
});
