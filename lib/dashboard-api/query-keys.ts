// Query keys in one place, so a refresh of one account's data can name exactly what changed.
export const queryKeys = {
  accounts: () => ["accounts"] as const,
  /** The accounts page's morning check (under accounts: a refresh of balances refreshes it). */
  morningCheck: () => ["accounts", "morning"] as const,
  account: (accountNumber: string) => ["accounts", accountNumber] as const,
  history: (accountNumber: string, from: string, to: string, order: "A" | "D") =>
    ["accounts", accountNumber, "history", { from, to, order }] as const,
  /** The history page's range read window by window (under the range's key: live updates refresh it). */
  pagedHistory: (accountNumber: string, from: string, to: string, order: "A" | "D") =>
    ["accounts", accountNumber, "history", { from, to, order }, "paged"] as const,
  incomingWires: () => ["incoming-wires"] as const,
  /** What waits for the signed-in person: the list (items) and its counts. */
  inbox: (view?: "items" | "count") => (view ? (["inbox", view] as const) : (["inbox"] as const)),
  wireSummaries: (q: Record<string, string>) => ["wire-summaries", q] as const,
  webhooks: () => ["webhooks"] as const,
  alertRules: () => ["alert-rules"] as const,
  notifications: () => ["notifications"] as const,
  me: () => ["me"] as const,
  drafts: () => ["drafts"] as const,
  draft: (id: string | undefined) => ["drafts", "one", id] as const,
  beneficiaries: () => ["beneficiaries"] as const,
  wireSystem: () => ["wire-system"] as const,
  /** Sent payments: every list and detail (a refresh after a release names this). */
  payments: () => ["payments"] as const,
  paymentsList: (applied: unknown) => ["payments", applied] as const,
  payment: (account: string, id: string) => ["payments", "detail", account, id] as const,
  balanceAhead: (accountNumber: string) => ["balance-ahead", accountNumber] as const,
  inboxShortfalls: () => ["inbox-shortfalls"] as const,
};
