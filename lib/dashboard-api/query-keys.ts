// Query keys in one place, so a refresh of one account's data can name exactly what changed.
export const queryKeys = {
  accounts: () => ["accounts"] as const,
  account: (accountNumber: string) => ["accounts", accountNumber] as const,
  history: (accountNumber: string, from: string, to: string, order: "A" | "D") =>
    ["accounts", accountNumber, "history", { from, to, order }] as const,
  incomingWires: () => ["incoming-wires"] as const,
  /** What waits for the signed-in person: the list (items) and its counts. */
  inbox: (view?: "items" | "count") => (view ? (["inbox", view] as const) : (["inbox"] as const)),
  wireSummaries: (q: Record<string, string>) => ["wire-summaries", q] as const,
  webhooks: () => ["webhooks"] as const,
  alertRules: () => ["alert-rules"] as const,
  notifications: () => ["notifications"] as const,
};
