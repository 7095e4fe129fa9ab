// The audit log's action names in words for the audit page. The log, its filter and its CSV keep
// the names themselves ("incoming_wire.approve"); the page shows both. A name this table does not
// know is shown as it is.

const NAMED: Record<string, string> = {
  "auth.sign_in": "Sign-in",
  "auth.sign_out": "Sign-out",
  "password.change": "Password changed",
  "totp.enrol_start": "Authenticator set-up started",
  "totp.enable": "Authenticator turned on",
  "totp.disable": "Authenticator turned off",
  "totp.replace_start": "Authenticator replacement started",
  "totp.replace": "Authenticator replaced",
  "user.create": "User added",
  "user.update": "User changed",
  "user.unlock": "User unlocked",
  "user.password_reset": "User's password reset",
  "credential_link.issue": "One-time link e-mailed (invitation, reset or lost device)",
  "credential_link.use": "One-time link used",
  "settings.update": "Settings changed",
  "policies.update": "Approval policies changed",
  "integration_token.create": "Integration token made",
  "integration_token.revoke": "Integration token revoked",
  "statement_subscription.create": "Statement subscription made",
  "statement_subscription.cancel": "Statement subscription cancelled",
  "statement_subscription.delivery": "Statement delivery",
  "statement_subscription.retry": "Statement delivery retried",
  "schedule.occurrence.reprocessed": "Scheduled payment sent through the backup after an outage",
  "sweep.move": "Sweep moved money between accounts to keep one inside its band",
  "approval_digest.sent": "Approval digest e-mailed",
  "admin_change.request": "Change asked for: waits for a second administrator",
  "admin_change.approve": "Change approved by a second administrator",
  "admin_change.reject": "Change rejected by a second administrator",
  "admin_change.withdraw": "Change withdrawn by its author",
  "admin_change.expire": "Change expired unapproved",
  "transfer.sen": "SEN transfer",
  "transfer.sen.repeat": "SEN transfer submitted again (moved once)",
  "account.create_sen": "SEN account opened",
  "beneficiary.create": "Beneficiary added",
  "beneficiary.update": "Beneficiary changed",
  "beneficiary.delete": "Beneficiary deleted",
  "beneficiary.approve": "Beneficiary approved (new, or its changed details)",
  "beneficiary.reject": "Beneficiary rejected (new, or its changed details)",
  "webhook.register": "Webhook registered",
  "webhook.delete": "Webhook deleted",
  "alert_rule.create": "Balance alert set",
  "alert_rule.update": "Balance alert changed",
  "alert_rule.delete": "Balance alert removed",
  "draft.release": "Draft release refused",
  "draft.reject": "Draft rejection refused",
  "draft.reprocessed.wire": "Wire reprocessed after an outage",
  "incoming_wire.vote": "Incoming wire: first of two approvals",
  "incoming_wire.fallback": "Incoming wire: sent through the backup",
};

const KINDS: Record<string, string> = { wire: "Wire draft", sen: "SEN transfer draft" };
const DRAFT_STEPS: Record<string, string> = {
  approve: "approved: first of two approvals",
  create: "created",
  update: "corrected",
  release: "released",
  reject: "rejected",
};
const DECISIONS: Record<string, string> = { approve: "approved", cancel: "canceled", return: "returned" };
const DECISION_NOUNS: Record<string, string> = {
  approve: "approval",
  cancel: "cancellation",
  return: "return",
};

/** "incoming_wire.approve" → "Incoming wire approved"; an unknown name comes back as it is. */
export function auditActionWords(action: string): string {
  const named = NAMED[action];
  if (named) return named;
  const [area, a, b, ...rest] = action.split(".");
  if (rest.length) return action;
  if (area === "draft" && a in DRAFT_STEPS && b in KINDS) return `${KINDS[b]} ${DRAFT_STEPS[a]}`;
  if (area === "incoming_wire" && a in DECISIONS) {
    if (b === undefined) return `Incoming wire ${DECISIONS[a]}`;
    if (b === "settled") return `Incoming wire ${DECISION_NOUNS[a]} settled at the bank`;
  }
  return action;
}

const GOOD = new Set(["ok", "complete", "approved"]);
const WAITING = new Set([
  "queued",
  "awaiting_approval",
  "awaiting_second_approval",
  "unconfirmed",
  "in-progress",
  "pre-approval",
  "stale",
  "pending",
]);
const REFUSED =
  /^(refused|rejected|denied|failed|bank unavailable|rate_limited|invalid|disabled|totp_invalid|locked)/;

/** The colour (a badge tone) that repeats an entry's result, which is always shown in words too. */
export function auditResultTone(result: string): "success" | "warning" | "danger" | "neutral" {
  const r = result.toLowerCase();
  if (GOOD.has(r)) return "success";
  if (WAITING.has(r)) return "warning";
  if (REFUSED.test(r)) return "danger";
  return "neutral";
}

/** "awaiting_second_approval" → "awaiting second approval": the result as the page shows it. */
export function auditResultWords(result: string): string {
  return result.replaceAll("_", " ");
}
