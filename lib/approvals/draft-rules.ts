// The rules of a draft in one client-safe place: its states (one tuple; the types, the open set
// and the database's check are built from it), which of its votes count, what the next approval
// does, who may release, and what an inbox action does to an item. Pages, the server and the SQL
// check read these; none keeps a copy.

/** Every state a draft can be in: pending → releasing → (queued →) released | failed; pending → rejected. */
export const DRAFT_STATUSES = ["pending", "releasing", "queued", "released", "rejected", "failed"] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

/** States in which a draft still waits for someone or something: the "open" drafts. */
export const OPEN_DRAFT_STATUSES = [
  "pending",
  "releasing",
  "queued",
] as const satisfies readonly DraftStatus[];
export const isOpenDraft = (s: DraftStatus) => (OPEN_DRAFT_STATUSES as readonly DraftStatus[]).includes(s);

/** Open states in which people can still act on it (a queued wire is the bank's to replay). */
export const ACTIONABLE_DRAFT_STATUSES = ["pending", "releasing"] as const satisfies readonly DraftStatus[];
export const isActionableDraft = (s: DraftStatus) =>
  (ACTIONABLE_DRAFT_STATUSES as readonly DraftStatus[]).includes(s);

/** `IN (...)` list of SQL literals for a set of states (the values are this module's own words). */
export const sqlStates = (states: readonly DraftStatus[]) => states.map((s) => `'${s}'`).join(", ");

/** The database's check on payment_drafts.status, generated from DRAFT_STATUSES. */
export const DRAFT_STATUS_CHECK_SQL = `status = ANY (ARRAY[${DRAFT_STATUSES.map((s) => `'${s}'::text`).join(", ")}])`;

/** The votes on a payment as a screen counts them: a draft's approvals, an incoming wire's votes. */
export interface VoteCount {
  /** Who prepared it; none for an incoming wire. */
  preparedBy?: { id: string } | null;
  approvals: readonly { id: string; ineligible?: string }[];
  approvalsRequired: number;
}

/** The little of a draft these rules read. */
export interface DraftVotes extends VoteCount {
  status: DraftStatus;
  preparedBy: { id: string };
}

/** Votes that count now: not struck for their voter's standing, never the preparer's. */
export const countedApprovals = <A extends { id: string; ineligible?: string }>(d: {
  preparedBy?: { id: string } | null;
  approvals: readonly A[];
}): A[] => d.approvals.filter((a) => !a.ineligible && a.id !== d.preparedBy?.id);

/** Whether one more approval by `meId` (an approver who has not voted) makes the draft send. */
export const myApprovalSends = (d: DraftVotes, meId?: string) =>
  countedApprovals(d).filter((a) => a.id !== meId).length + 1 >= d.approvalsRequired;

/** Whether `meId` has a vote on the draft that counts. */
export const approvedBy = (d: DraftVotes, meId: string) => countedApprovals(d).some((a) => a.id === meId);

/** Whether this person may release (approve) the draft now: an approver, pending, not theirs, not yet voted. */
export const mayRelease = (d: DraftVotes, me: { id: string }, canRelease: boolean) =>
  canRelease && d.status === "pending" && d.preparedBy.id !== me.id && !approvedBy(d, me.id);

const ORDINAL = ["", "first", "second", "third", "fourth"] as const;
const NUMBER = ["no", "one", "two", "three", "four"] as const;

/** Which of the votes it needs one more approval by `meId` would be: 1 for the first. */
export const myVoteNumber = (d: DraftVotes, meId?: string) =>
  countedApprovals(d).filter((a) => a.id !== meId).length + 1;

/** "first", "second", "third": a vote's place in words. */
export const ordinalWord = (k: number) => ORDINAL[k] ?? `#${k}`;

/** "first of two", "second of three": a vote's place among the approvals a payment needs. */
export const voteOfWords = (k: number, n: number) => `${ordinalWord(k)} of ${NUMBER[n] ?? n}`;

/** "two approvers", "three approvers": how many a payment needs, in words. */
export const approversWords = (n: number) => `${NUMBER[n] ?? n} approver${n === 1 ? "" : "s"}`;

/** The label of the button that casts a vote which does not yet send: "Approve (first of two)". */
export const approveLabel = (d: DraftVotes, meId?: string) =>
  `Approve (${voteOfWords(myVoteNumber(d, meId), d.approvalsRequired)})`;

/**
 * What an approver's vote that does not send means, before the click: "Your approval is the first
 * of two: nothing is sent until a second approver approves." (with three: "the first of three:
 * nothing is sent until two more approvers approve.").
 */
export function notYetSendingWords(d: DraftVotes, meId?: string): string {
  const k = myVoteNumber(d, meId);
  const more = d.approvalsRequired - k;
  const until =
    more === 1
      ? `a${k === 1 ? " second" : "nother"} approver approves`
      : `${NUMBER[more] ?? more} more approvers approve`;
  return `Your approval is the ${voteOfWords(k, d.approvalsRequired)}: nothing is sent until ${until}.`;
}

/** What a pending draft that needs several approvers still needs, for everyone who reads the list. */
export function stillNeededWords(d: VoteCount): string {
  const counted = countedApprovals(d).length;
  const more = d.approvalsRequired - counted;
  if (!counted)
    return `Needs ${approversWords(d.approvalsRequired)}; the ${ordinalWord(d.approvalsRequired)} approval sends it.`;
  if (more <= 1) return "The next approval, by another approver, sends it.";
  return `${NUMBER[more] ?? more} more approvals, by other approvers, send it.`.replace(/^./, (c) =>
    c.toUpperCase(),
  );
}

/** "1 of 2 approvals", in words a screen reader reads as it is. */
export const approvalCountWords = (d: VoteCount) =>
  `${countedApprovals(d).length} of ${d.approvalsRequired} approval${d.approvalsRequired === 1 ? "" : "s"}`;

export type InboxAct = "approve" | "cancel" | "return";

/** What an inbox action does to one item, in words, or why it does not fit the item. */
export function planInboxAction(
  item:
    | { kind: "draft"; draft: DraftVotes }
    | {
        kind: "incoming_wire";
        wire: {
          needsTwoApprovers: boolean;
          approvalsRequired: number;
          votes: readonly { ineligible?: string }[];
        };
      },
  act: InboxAct,
): { fits: true; words: string } | { fits: false; why: string } {
  if (item.kind === "draft") {
    if (act === "return") return { fits: false, why: "a draft is rejected, not returned" };
    if (act === "cancel") return { fits: true, words: "Reject the draft" };
    return {
      fits: true,
      words: myApprovalSends(item.draft)
        ? "Release: send it to the bank"
        : `${approveLabel(item.draft)}: nothing is sent yet`,
    };
  }
  const w = item.wire;
  const verb = { approve: "Approve", cancel: "Cancel", return: "Return" }[act];
  // The votes that still count, struck ones aside; the one this action casts is the next.
  const k = w.votes.filter((v) => !v.ineligible).length + 1;
  if (w.needsTwoApprovers && k < w.approvalsRequired)
    return { fits: true, words: `${verb} (${voteOfWords(k, w.approvalsRequired)} approvers)` };
  return { fits: true, words: `${verb} the wire` };
}
