// The whole access model on one screen: every permission, and each role's set beside it.
export const PERMISSIONS = [
  "accounts.read", // balances, history, exports
  "transfers.create", // prepare a SEN transfer (or a draft above the dual-control threshold)
  "wires.create", // prepare an outgoing wire (a draft until released)
  "wires.release", // release another user's draft: dual control
  "wires.act", // approve, cancel or return incoming wires
  "beneficiaries.approve", // approve or reject another user's new beneficiary or payee change
  "alerts.read", // see balance alerts (webhooks)
  "alerts.write", // create and delete balance alerts
  "users.manage", // add, disable and change the role of users
  "audit.read", // read the audit log
  "settings.manage", // change dual-control limits and other administrator settings
  "changes.decide", // approve or reject another administrator's change that weakens a control
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ["viewer", "preparer", "approver", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Each role's name, the same on every page ("Administrator", never "Admin"). */
export const ROLE_NAMES: Record<Role, string> = {
  viewer: "Viewer",
  preparer: "Preparer",
  approver: "Approver",
  admin: "Administrator",
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "Sees accounts, balances, history and alerts",
  preparer: "Also prepares transfers and wires for approval",
  approver: "Also releases others' wires, approves others' payee changes and acts on incoming wires",
  admin: "Everything, plus users and the audit log",
};

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  viewer: ["accounts.read", "alerts.read"],
  preparer: ["accounts.read", "alerts.read", "transfers.create", "wires.create", "alerts.write"],
  approver: [
    "accounts.read",
    "alerts.read",
    "transfers.create",
    "wires.create",
    "wires.release",
    "wires.act",
    "beneficiaries.approve",
    "alerts.write",
  ],
  admin: PERMISSIONS,
};

export function hasPermission(role: Role | undefined | null, permission: Permission): boolean {
  return !!role && ROLE_PERMISSIONS[role].includes(permission);
}

export function isRole(x: unknown): x is Role {
  return typeof x === "string" && (ROLES as readonly string[]).includes(x);
}
