// The header's pages, in order. A role sees only the links its permissions open (lib/auth).
import type { Permission } from "./auth/permissions.ts";

export interface NavItem {
  href: string;
  label: string;
  /** Needed to see the link; none means every signed-in user. */
  permission?: Permission;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/accounts", label: "Accounts", permission: "accounts.read" },
  { href: "/transfers/new", label: "Send", permission: "transfers.create" },
  { href: "/wires/new", label: "Wire", permission: "wires.create" },
  { href: "/drafts", label: "Drafts", permission: "wires.create" },
  { href: "/beneficiaries", label: "Beneficiaries", permission: "wires.create" },
  { href: "/payments", label: "Payments", permission: "accounts.read" },
  { href: "/incoming-wires", label: "Incoming wires", permission: "wires.act" },
  { href: "/wire-summaries", label: "Wire summaries", permission: "accounts.read" },
  { href: "/alerts", label: "Alerts", permission: "alerts.read" },
  { href: "/webhooks", label: "Webhooks", permission: "alerts.read" },
  { href: "/admin", label: "Administration", permission: "users.manage" },
  { href: "/profile", label: "Profile" },
];
