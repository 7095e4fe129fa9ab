// The header's pages, in groups and in order. A role sees only the links its permissions open
// (lib/auth), and a group with none of them is not shown.
import { hasPermission, type Permission, type Role } from "./auth/permissions.ts";

export interface NavItem {
  href: string;
  label: string;
  /** Needed to see the link (any one of them); none means every signed-in user. */
  permission?: Permission | readonly Permission[];
  /** The link carries the count of what waits for the user (the approvals inbox). */
  count?: "inbox";
}

export interface NavGroup {
  label: string;
  items: readonly NavItem[];
}

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    label: "Accounts",
    items: [
      { href: "/accounts", label: "Accounts", permission: "accounts.read" },
      { href: "/payments", label: "Payments", permission: "accounts.read" },
      { href: "/wire-summaries", label: "Wire summaries", permission: "accounts.read" },
      { href: "/statements", label: "Statements", permission: "accounts.read" },
    ],
  },
  {
    label: "Sending money",
    items: [
      { href: "/transfers/new", label: "Send", permission: "transfers.create" },
      { href: "/wires/new", label: "Wire", permission: "wires.create" },
      { href: "/drafts", label: "Drafts", permission: "wires.create" },
      { href: "/scheduled", label: "Scheduled", permission: "accounts.read" },
      { href: "/beneficiaries", label: "Beneficiaries", permission: "wires.create" },
    ],
  },
  {
    label: "Approvals",
    items: [
      { href: "/approvals", label: "Approvals", permission: ["wires.release", "wires.act"], count: "inbox" },
      { href: "/incoming-wires", label: "Incoming wires", permission: "wires.act" },
    ],
  },
  {
    label: "Alerts and webhooks",
    items: [
      { href: "/alerts", label: "Alerts", permission: "alerts.read" },
      { href: "/webhooks", label: "Webhooks", permission: "alerts.read" },
    ],
  },
  {
    label: "Administration",
    items: [
      { href: "/admin", label: "Administration", permission: "users.manage" },
      { href: "/mail", label: "Mail" },
      { href: "/profile", label: "Profile" },
    ],
  },
];

export function maySee(role: Role, item: NavItem): boolean {
  if (!item.permission) return true;
  const any = typeof item.permission === "string" ? [item.permission] : item.permission;
  return any.some((p) => hasPermission(role, p));
}

/** The groups a role sees, each with only the links it may follow. */
export function navFor(role: Role): NavGroup[] {
  return NAV_GROUPS.map((g) => ({ ...g, items: g.items.filter((i) => maySee(role, i)) })).filter(
    (g) => g.items.length > 0,
  );
}
