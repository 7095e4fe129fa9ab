// Every dashboard route handler, invoked as Next invokes it (a NextRequest carrying a real signed
// next-auth session cookie), against the real bank and a real dashboard database: each role is
// allowed or refused (403) exactly as lib/auth/permissions.ts says, no session is a 401, and
// inputs, bank rejections and outages map to the API's error bodies.
import fs from "node:fs";
import path from "node:path";
import type { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ROLES, type Role } from "../../lib/auth/permissions.ts";
import { createUser, type UserRow } from "../../lib/auth/users.ts";
import { addDays, businessDayFormatter } from "../../lib/bank-api/dates.ts";
import { BankClient, setBankClient, TokenManager } from "../../lib/bank-client/index.ts";
import { config } from "../../lib/config.ts";
import type {
  AccountDetailResponse,
  AccountsResponse,
  AdminUsersResponse,
  HistoryResponse,
} from "../../lib/dashboard-api/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { sandbox, sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";
import { cookieFor, invoke, openTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

const SECRET = "test-nextauth-secret-0123456789abcdef";
process.env.NEXTAUTH_SECRET = SECRET;
process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";

let bank: TestBank;
let customer: Awaited<ReturnType<typeof sandboxCustomer>>;
let dashboard: TestDashboardDb;
let db: DashboardDb;
const users = {} as Record<Role, UserRow>;
let other: UserRow;
let dda: string;
let sen: string;
let busy: string;

const NO_SUCH_CHANGE = "00000000-0000-4000-8000-000000000000";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Record<string, Handler>;

const mod = {
  me: () => import("../../app/api/me/route.ts"),
  session: () => import("../../app/api/session/route.ts"),
  health: () => import("../../app/api/health/route.ts"),
  accounts: () => import("../../app/api/accounts/route.ts"),
  account: () => import("../../app/api/accounts/[accountNumber]/route.ts"),
  balance: () => import("../../app/api/accounts/[accountNumber]/balance/route.ts"),
  history: () => import("../../app/api/accounts/[accountNumber]/history/route.ts"),
  adminUsers: () => import("../../app/api/admin/users/route.ts"),
  adminUser: () => import("../../app/api/admin/users/[id]/route.ts"),
  unlockUser: () => import("../../app/api/admin/users/[id]/unlock/route.ts"),
  resetPassword: () => import("../../app/api/admin/users/[id]/reset-password/route.ts"),
  removeSecondFactor: () => import("../../app/api/admin/users/[id]/remove-second-factor/route.ts"),
  changePassword: () => import("../../app/api/profile/password/route.ts"),
  audit: () => import("../../app/api/admin/audit/route.ts"),
  auditExport: () => import("../../app/api/admin/audit/export/route.ts"),
  totp: () => import("../../app/api/profile/totp/route.ts"),
  totpConfirm: () => import("../../app/api/profile/totp/confirm/route.ts"),
  settings: () => import("../../app/api/admin/settings/route.ts"),
  changes: () => import("../../app/api/admin/changes/route.ts"),
  approveChange: () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
  rejectChange: () => import("../../app/api/admin/changes/[id]/reject/route.ts"),
  withdrawChange: () => import("../../app/api/admin/changes/[id]/withdraw/route.ts"),
  policies: () => import("../../app/api/admin/policies/route.ts"),
  policiesPreview: () => import("../../app/api/admin/policies/preview/route.ts"),
  integrationTokens: () => import("../../app/api/admin/integration-tokens/route.ts"),
  integrationToken: () => import("../../app/api/admin/integration-tokens/[id]/route.ts"),
  schedules: () => import("../../app/api/schedules/route.ts"),
  schedule: () => import("../../app/api/schedules/[id]/route.ts"),
  scheduleApprove: () => import("../../app/api/schedules/[id]/approve/route.ts"),
  scheduleSkip: () => import("../../app/api/schedules/[id]/skip/route.ts"),
  scheduleStatus: () => import("../../app/api/schedules/[id]/status/route.ts"),
  sweeps: () => import("../../app/api/schedules/sweeps/route.ts"),
  ahead: () => import("../../app/api/accounts/[accountNumber]/ahead/route.ts"),
  sweep: () => import("../../app/api/schedules/sweeps/[sweepId]/route.ts"),
  sweepApprove: () => import("../../app/api/schedules/sweeps/[sweepId]/approve/route.ts"),
  sweepStatus: () => import("../../app/api/schedules/sweeps/[sweepId]/status/route.ts"),
  bai2: () => import("../../app/api/statements/bai2/route.ts"),
  camt053: () => import("../../app/api/statements/camt053/route.ts"),
  camt052: () => import("../../app/api/statements/camt052/route.ts"),
  subscriptions: () => import("../../app/api/statements/subscriptions/route.ts"),
  subscription: () => import("../../app/api/statements/subscriptions/[id]/route.ts"),
  subscriptionDelivery: () => import("../../app/api/statements/subscriptions/[id]/deliveries/[day]/route.ts"),
  subscriptionRetry: () =>
    import("../../app/api/statements/subscriptions/[id]/deliveries/[day]/retry/route.ts"),
  transfers: () => import("../../app/api/transfers/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
  wireDuplicates: () => import("../../app/api/wires/duplicates/route.ts"),
  drafts: () => import("../../app/api/drafts/route.ts"),
  draft: () => import("../../app/api/drafts/[id]/route.ts"),
  draftRelease: () => import("../../app/api/drafts/[id]/release/route.ts"),
  draftReject: () => import("../../app/api/drafts/[id]/reject/route.ts"),
  beneficiaries: () => import("../../app/api/beneficiaries/route.ts"),
  beneficiary: () => import("../../app/api/beneficiaries/[id]/route.ts"),
  beneficiaryApprove: () => import("../../app/api/beneficiaries/[id]/approve/route.ts"),
  beneficiaryReject: () => import("../../app/api/beneficiaries/[id]/reject/route.ts"),
  payments: () => import("../../app/api/payments/route.ts"),
  payment: () => import("../../app/api/payments/[id]/route.ts"),
  paymentsExport: () => import("../../app/api/payments/export/route.ts"),
  createSen: () => import("../../app/api/accounts/sen/route.ts"),
  incomingWires: () => import("../../app/api/incoming-wires/route.ts"),
  inbox: () => import("../../app/api/inbox/route.ts"),
  shortfalls: () => import("../../app/api/inbox/shortfalls/route.ts"),
  incomingWire: () => import("../../app/api/incoming-wires/[paymentId]/route.ts"),
  wireSummaries: () => import("../../app/api/wire-summaries/route.ts"),
  wireSystem: () => import("../../app/api/wire-system/route.ts"),
  morning: () => import("../../app/api/accounts/morning/route.ts"),
  webhooks: () => import("../../app/api/webhooks/route.ts"),
  webhook: () => import("../../app/api/webhooks/[id]/route.ts"),
  alertRules: () => import("../../app/api/alerts/route.ts"),
  alertRule: () => import("../../app/api/alerts/[accountNumber]/route.ts"),
  notifications: () => import("../../app/api/notifications/route.ts"),
};

beforeAll(async () => {
  bank = await startTestBank();
  dashboard = await openTestDashboardDb("dashboard-routes");
  db = dashboard.db;
  const c = await sandboxCustomer(bank, "Northwind Traders LLC");
  customer = c;
  dda = await c.account("DDA", 250_000.1);
  sen = await c.account("SEN", 1_000.05);
  busy = await c.account("DDA", 0);
  process.env.BANK_API_URL = bank.url;
  process.env.BANK_SUBSCRIPTION_KEY = c.subscriptionKey;
  for (const role of ROLES) users[role] = await testUser(db, role, `${role}@routes.example`, `Route ${role}`);
  other = await testUser(db, "viewer", "other@routes.example", "Other", "x".repeat(12));
}, 180_000);

afterAll(async () => {
  setBankClient(undefined);
  await dashboard?.close();
  await bank?.close();
});

interface RouteCase {
  name: string;
  load: () => Promise<unknown>;
  method: string;
  url: () => string;
  params?: () => Record<string, string>;
  body?: (role: Role) => unknown;
  /** The roles that may call it, written out by hand: the table the permission list must produce. */
  allowed: readonly Role[];
}

const EVERYONE = ["viewer", "preparer", "approver", "admin"] as const;
const ADMIN_ONLY = ["admin"] as const;
const PREPARERS = ["preparer", "approver", "admin"] as const;
const RELEASERS = ["approver", "admin"] as const;
const PAYEE_APPROVERS = ["approver", "admin"] as const;
const NO_DRAFT = "00000000-0000-4000-8000-000000000000";
const WIRE_DECIDERS = ["approver", "admin"] as const;
const ALERT_WRITERS = ["preparer", "approver", "admin"] as const;

const ROUTES: RouteCase[] = [
  // Sending money: bodies a role's request can carry without moving money (a 400 or a 404 is allowed).
  {
    name: "POST /api/transfers",
    load: mod.transfers,
    method: "POST",
    url: () => "/api/transfers",
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "POST /api/wires",
    load: mod.wires,
    method: "POST",
    url: () => "/api/wires",
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "GET /api/wires/duplicates",
    load: mod.wireDuplicates,
    method: "GET",
    url: () => "/api/wires/duplicates?beneficiary_account_number=1&amountCents=100",
    allowed: PREPARERS,
  },
  { name: "GET /api/drafts", load: mod.drafts, method: "GET", url: () => "/api/drafts", allowed: PREPARERS },
  {
    name: "GET /api/drafts/[id]",
    load: mod.draft,
    method: "GET",
    url: () => `/api/drafts/${NO_DRAFT}`,
    params: () => ({ id: NO_DRAFT }),
    allowed: PREPARERS,
  },
  {
    name: "PUT /api/drafts/[id]",
    load: mod.draft,
    method: "PUT",
    url: () => `/api/drafts/${NO_DRAFT}`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "POST /api/drafts/[id]/release",
    load: mod.draftRelease,
    method: "POST",
    url: () => `/api/drafts/${NO_DRAFT}/release`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({ version: 1 }),
    allowed: RELEASERS,
  },
  {
    name: "POST /api/drafts/[id]/reject",
    load: mod.draftReject,
    method: "POST",
    url: () => `/api/drafts/${NO_DRAFT}/reject`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({ version: 1, reason: "No such draft" }),
    allowed: RELEASERS,
  },
  {
    name: "GET /api/beneficiaries",
    load: mod.beneficiaries,
    method: "GET",
    url: () => "/api/beneficiaries",
    allowed: PREPARERS,
  },
  {
    name: "POST /api/beneficiaries",
    load: mod.beneficiaries,
    method: "POST",
    url: () => "/api/beneficiaries",
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "PUT /api/beneficiaries/[id]",
    load: mod.beneficiary,
    method: "PUT",
    url: () => `/api/beneficiaries/${NO_DRAFT}`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "POST /api/beneficiaries/[id]/approve",
    load: mod.beneficiaryApprove,
    method: "POST",
    url: () => `/api/beneficiaries/${NO_DRAFT}/approve`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({ changeId: NO_DRAFT }),
    allowed: PAYEE_APPROVERS,
  },
  {
    name: "POST /api/beneficiaries/[id]/reject",
    load: mod.beneficiaryReject,
    method: "POST",
    url: () => `/api/beneficiaries/${NO_DRAFT}/reject`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({ changeId: NO_DRAFT }),
    allowed: PAYEE_APPROVERS,
  },
  {
    name: "DELETE /api/beneficiaries/[id]",
    load: mod.beneficiary,
    method: "DELETE",
    url: () => `/api/beneficiaries/${NO_DRAFT}`,
    params: () => ({ id: NO_DRAFT }),
    allowed: PREPARERS,
  },
  {
    name: "GET /api/accounts/morning",
    load: mod.morning,
    method: "GET",
    url: () => "/api/accounts/morning",
    allowed: EVERYONE,
  },
  {
    name: "GET /api/wire-system",
    load: mod.wireSystem,
    method: "GET",
    url: () => "/api/wire-system",
    allowed: PREPARERS,
  },
  {
    name: "GET /api/payments",
    load: mod.payments,
    method: "GET",
    url: () => `/api/payments?account=${dda}&from=2026-01-01&to=2026-01-31`,
    allowed: EVERYONE,
  },
  {
    name: "GET /api/payments/export",
    load: mod.paymentsExport,
    method: "GET",
    url: () => `/api/payments/export?account=${dda}&from=2026-01-01&to=2026-01-31`,
    allowed: EVERYONE,
  },
  {
    name: "GET /api/payments/[id]",
    load: mod.payment,
    method: "GET",
    url: () => `/api/payments/O000000NOSUCH?account=${dda}`,
    params: () => ({ id: "O000000NOSUCH" }),
    allowed: EVERYONE,
  },
  {
    name: "POST /api/accounts/sen",
    load: mod.createSen,
    method: "POST",
    url: () => "/api/accounts/sen",
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "GET /api/admin/changes",
    load: mod.changes,
    method: "GET",
    url: () => "/api/admin/changes",
    allowed: ADMIN_ONLY,
  },
  ...(["approve", "reject", "withdraw"] as const).map((step) => ({
    name: `POST /api/admin/changes/[id]/${step}`,
    load: { approve: mod.approveChange, reject: mod.rejectChange, withdraw: mod.withdrawChange }[step],
    method: "POST",
    url: () => `/api/admin/changes/${NO_SUCH_CHANGE}/${step}`,
    params: () => ({ id: NO_SUCH_CHANGE }),
    allowed: ADMIN_ONLY,
  })),
  {
    name: "GET /api/admin/settings",
    load: mod.settings,
    method: "GET",
    url: () => "/api/admin/settings",
    allowed: ADMIN_ONLY,
  },
  {
    name: "PUT /api/admin/settings",
    load: mod.settings,
    method: "PUT",
    url: () => "/api/admin/settings",
    body: () => ({ senReleaseThresholdCents: 25_000_000 }),
    allowed: ADMIN_ONLY,
  },
  {
    name: "GET /api/incoming-wires",
    load: mod.incomingWires,
    method: "GET",
    url: () => "/api/incoming-wires",
    allowed: WIRE_DECIDERS,
  },
  {
    name: "POST /api/incoming-wires/[paymentId]",
    load: mod.incomingWire,
    method: "POST",
    url: () => "/api/incoming-wires/I261123NOSUCH00",
    params: () => ({ paymentId: "I261123NOSUCH00" }),
    body: () => ({ accountNumber: dda, action: "approve", paymentTimestamp: "2026-11-23 00:00:00.000" }),
    allowed: WIRE_DECIDERS,
  },
  {
    name: "GET /api/wire-summaries",
    load: mod.wireSummaries,
    method: "GET",
    url: () => `/api/wire-summaries?accountNumber=${dda}&date=2026-11-23&direction=I`,
    allowed: EVERYONE,
  },
  {
    name: "GET /api/webhooks",
    load: mod.webhooks,
    method: "GET",
    url: () => "/api/webhooks",
    allowed: EVERYONE,
  },
  {
    name: "POST /api/webhooks",
    load: mod.webhooks,
    method: "POST",
    url: () => "/api/webhooks",
    body: (role) => ({
      accountNumber: dda,
      description: `routes ${role}`,
      url: "https://erp.example.com/hook",
    }),
    allowed: ALERT_WRITERS,
  },
  {
    name: "DELETE /api/webhooks/[id]",
    load: mod.webhook,
    method: "DELETE",
    url: () => "/api/webhooks/no-such-hook",
    params: () => ({ id: "no-such-hook" }),
    allowed: ALERT_WRITERS,
  },
  {
    name: "GET /api/alerts",
    load: mod.alertRules,
    method: "GET",
    url: () => "/api/alerts",
    allowed: EVERYONE,
  },
  {
    name: "PUT /api/alerts/[accountNumber]",
    load: mod.alertRule,
    method: "PUT",
    url: () => `/api/alerts/${dda}`,
    params: () => ({ accountNumber: dda }),
    body: () => ({ below: "100.00" }),
    allowed: ALERT_WRITERS,
  },
  {
    name: "DELETE /api/alerts/[accountNumber]",
    load: mod.alertRule,
    method: "DELETE",
    url: () => `/api/alerts/${busy}`,
    params: () => ({ accountNumber: busy }),
    allowed: ALERT_WRITERS,
  },
  {
    name: "GET /api/notifications",
    load: mod.notifications,
    method: "GET",
    url: () => "/api/notifications",
    allowed: EVERYONE,
  },
  {
    name: "POST /api/notifications",
    load: mod.notifications,
    method: "POST",
    url: () => "/api/notifications",
    body: () => ({ all: true }),
    allowed: EVERYONE,
  },
  { name: "GET /api/me", load: mod.me, method: "GET", url: () => "/api/me", allowed: EVERYONE },
  // Everyone has an inbox; it holds only what the role may act on (empty for a viewer or preparer).
  {
    name: "GET /api/inbox",
    load: mod.inbox,
    method: "GET",
    url: () => "/api/inbox?view=count",
    allowed: EVERYONE,
  },
  {
    name: "GET /api/inbox/shortfalls",
    load: mod.shortfalls,
    method: "GET",
    url: () => "/api/inbox/shortfalls",
    allowed: EVERYONE,
  },
  {
    name: "GET /api/session",
    load: mod.session,
    method: "GET",
    url: () => "/api/session",
    allowed: EVERYONE,
  },
  {
    name: "GET /api/accounts",
    load: mod.accounts,
    method: "GET",
    url: () => "/api/accounts",
    allowed: EVERYONE,
  },
  {
    name: "GET /api/accounts/[accountNumber]",
    load: mod.account,
    method: "GET",
    url: () => `/api/accounts/${dda}`,
    params: () => ({ accountNumber: dda }),
    allowed: EVERYONE,
  },
  {
    name: "GET /api/accounts/[accountNumber]/ahead",
    load: mod.ahead,
    method: "GET",
    url: () => `/api/accounts/${dda}/ahead`,
    params: () => ({ accountNumber: dda }),
    allowed: EVERYONE,
  },
  {
    name: "GET /api/accounts/[accountNumber]/balance",
    load: mod.balance,
    method: "GET",
    url: () => `/api/accounts/${dda}/balance`,
    params: () => ({ accountNumber: dda }),
    allowed: EVERYONE,
  },
  {
    name: "GET /api/accounts/[accountNumber]/history",
    load: mod.history,
    method: "GET",
    url: () => `/api/accounts/${dda}/history`,
    params: () => ({ accountNumber: dda }),
    allowed: EVERYONE,
  },
  {
    name: "GET /api/admin/users",
    load: mod.adminUsers,
    method: "GET",
    url: () => "/api/admin/users",
    allowed: ADMIN_ONLY,
  },
  {
    name: "POST /api/admin/users",
    load: mod.adminUsers,
    method: "POST",
    url: () => "/api/admin/users",
    body: (role) => ({
      email: `new-${role}-${Date.now()}@routes.example`,
      name: "New Person",
      role: "viewer",
    }),
    allowed: ADMIN_ONLY,
  },
  {
    name: "PATCH /api/admin/users/[id]",
    load: mod.adminUser,
    method: "PATCH",
    url: () => `/api/admin/users/${other.id}`,
    params: () => ({ id: other.id }),
    body: () => ({ role: "preparer" }),
    allowed: ADMIN_ONLY,
  },
  {
    name: "POST /api/admin/users/[id]/unlock",
    load: mod.unlockUser,
    method: "POST",
    url: () => `/api/admin/users/${other.id}/unlock`,
    params: () => ({ id: other.id }),
    allowed: ADMIN_ONLY,
  },
  {
    name: "POST /api/admin/users/[id]/reset-password",
    load: mod.resetPassword,
    method: "POST",
    url: () => `/api/admin/users/${other.id}/reset-password`,
    params: () => ({ id: other.id }),
    allowed: ADMIN_ONLY,
  },
  {
    name: "POST /api/admin/users/[id]/remove-second-factor",
    load: mod.removeSecondFactor,
    method: "POST",
    url: () => `/api/admin/users/${other.id}/remove-second-factor`,
    params: () => ({ id: other.id }),
    allowed: ADMIN_ONLY,
  },
  {
    name: "POST /api/profile/password",
    load: mod.changePassword,
    method: "POST",
    url: () => "/api/profile/password",
    // A wrong current password: every role may ask, and none changes anything here.
    body: () => ({
      currentPassword: "not the password",
      newPassword: "a new long password 1",
      confirmPassword: "a new long password 1",
    }),
    allowed: EVERYONE,
  },
  {
    name: "GET /api/admin/audit",
    load: mod.audit,
    method: "GET",
    url: () => "/api/admin/audit",
    allowed: ADMIN_ONLY,
  },
  {
    name: "GET /api/admin/audit/export",
    load: mod.auditExport,
    method: "GET",
    url: () => "/api/admin/audit/export",
    allowed: ADMIN_ONLY,
  },
  {
    name: "GET /api/profile/totp",
    load: mod.totp,
    method: "GET",
    url: () => "/api/profile/totp",
    allowed: EVERYONE,
  },
  {
    name: "POST /api/profile/totp",
    load: mod.totp,
    method: "POST",
    url: () => "/api/profile/totp",
    allowed: EVERYONE,
  },
  {
    name: "POST /api/profile/totp/confirm",
    load: mod.totpConfirm,
    method: "POST",
    url: () => "/api/profile/totp/confirm",
    body: () => ({ code: "000000" }),
    allowed: EVERYONE,
  },
  {
    name: "DELETE /api/profile/totp",
    load: mod.totp,
    method: "DELETE",
    url: () => "/api/profile/totp",
    body: () => ({ currentPassword: "not the password", code: "000000" }),
    allowed: EVERYONE,
  },
  // Approval policies and integration tokens: an administrator's (a change waits for a second one).
  {
    name: "GET /api/admin/policies",
    load: mod.policies,
    method: "GET",
    url: () => "/api/admin/policies",
    allowed: ADMIN_ONLY,
  },
  {
    name: "PUT /api/admin/policies",
    load: mod.policies,
    method: "PUT",
    url: () => "/api/admin/policies",
    body: () => ({}),
    allowed: ADMIN_ONLY,
  },
  {
    name: "POST /api/admin/policies/preview",
    load: mod.policiesPreview,
    method: "POST",
    url: () => "/api/admin/policies/preview",
    body: () => ({}),
    allowed: ADMIN_ONLY,
  },
  {
    name: "GET /api/admin/integration-tokens",
    load: mod.integrationTokens,
    method: "GET",
    url: () => "/api/admin/integration-tokens",
    allowed: ADMIN_ONLY,
  },
  {
    name: "POST /api/admin/integration-tokens",
    load: mod.integrationTokens,
    method: "POST",
    url: () => "/api/admin/integration-tokens",
    body: () => ({}),
    allowed: ADMIN_ONLY,
  },
  {
    name: "DELETE /api/admin/integration-tokens/[id]",
    load: mod.integrationToken,
    method: "DELETE",
    url: () => `/api/admin/integration-tokens/${NO_SUCH_CHANGE}`,
    params: () => ({ id: NO_SUCH_CHANGE }),
    allowed: ADMIN_ONLY,
  },
  // Scheduled payments: read by everyone, prepared by preparers, approved by approvers.
  {
    name: "GET /api/schedules",
    load: mod.schedules,
    method: "GET",
    url: () => "/api/schedules",
    allowed: EVERYONE,
  },
  {
    name: "POST /api/schedules",
    load: mod.schedules,
    method: "POST",
    url: () => "/api/schedules",
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "GET /api/schedules/[id]",
    load: mod.schedule,
    method: "GET",
    url: () => `/api/schedules/${NO_DRAFT}`,
    params: () => ({ id: NO_DRAFT }),
    allowed: EVERYONE,
  },
  {
    name: "PUT /api/schedules/[id]",
    load: mod.schedule,
    method: "PUT",
    url: () => `/api/schedules/${NO_DRAFT}`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "POST /api/schedules/[id]/approve",
    load: mod.scheduleApprove,
    method: "POST",
    url: () => `/api/schedules/${NO_DRAFT}/approve`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({}),
    allowed: RELEASERS,
  },
  {
    name: "POST /api/schedules/[id]/skip",
    load: mod.scheduleSkip,
    method: "POST",
    url: () => `/api/schedules/${NO_DRAFT}/skip`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "POST /api/schedules/[id]/status",
    load: mod.scheduleStatus,
    method: "POST",
    url: () => `/api/schedules/${NO_DRAFT}/status`,
    params: () => ({ id: NO_DRAFT }),
    body: () => ({}),
    allowed: PREPARERS,
  },
  // Sweeps: the same as scheduled payments.
  {
    name: "GET /api/schedules/sweeps",
    load: mod.sweeps,
    method: "GET",
    url: () => "/api/schedules/sweeps",
    allowed: EVERYONE,
  },
  {
    name: "POST /api/schedules/sweeps",
    load: mod.sweeps,
    method: "POST",
    url: () => "/api/schedules/sweeps",
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "PUT /api/schedules/sweeps/[sweepId]",
    load: mod.sweep,
    method: "PUT",
    url: () => `/api/schedules/sweeps/${NO_DRAFT}`,
    params: () => ({ sweepId: NO_DRAFT }),
    body: () => ({}),
    allowed: PREPARERS,
  },
  {
    name: "DELETE /api/schedules/sweeps/[sweepId]",
    load: mod.sweep,
    method: "DELETE",
    url: () => `/api/schedules/sweeps/${NO_DRAFT}`,
    params: () => ({ sweepId: NO_DRAFT }),
    allowed: PREPARERS,
  },
  {
    name: "POST /api/schedules/sweeps/[sweepId]/approve",
    load: mod.sweepApprove,
    method: "POST",
    url: () => `/api/schedules/sweeps/${NO_DRAFT}/approve`,
    params: () => ({ sweepId: NO_DRAFT }),
    body: () => ({}),
    allowed: RELEASERS,
  },
  {
    name: "POST /api/schedules/sweeps/[sweepId]/status",
    load: mod.sweepStatus,
    method: "POST",
    url: () => `/api/schedules/sweeps/${NO_DRAFT}/status`,
    params: () => ({ sweepId: NO_DRAFT }),
    body: () => ({}),
    allowed: PREPARERS,
  },
  // Statements: every role reads them (an account not the customer's is a 404).
  ...(["bai2", "camt053", "camt052"] as const).map((format) => ({
    name: `GET /api/statements/${format}`,
    load: mod[format],
    method: "GET",
    url: () => `/api/statements/${format}?account=1&from=2026-01-05&to=2026-01-06`,
    allowed: EVERYONE,
  })),
  // The daily subscription: everyone reads what it delivered; only an administrator sets it up.
  {
    name: "GET /api/statements/subscriptions",
    load: mod.subscriptions,
    method: "GET",
    url: () => "/api/statements/subscriptions",
    allowed: EVERYONE,
  },
  {
    name: "POST /api/statements/subscriptions",
    load: mod.subscriptions,
    method: "POST",
    url: () => "/api/statements/subscriptions",
    body: () => ({}),
    allowed: ADMIN_ONLY,
  },
  {
    name: "DELETE /api/statements/subscriptions/[id]",
    load: mod.subscription,
    method: "DELETE",
    url: () => `/api/statements/subscriptions/${NO_DRAFT}`,
    params: () => ({ id: NO_DRAFT }),
    allowed: ADMIN_ONLY,
  },
  {
    name: "GET /api/statements/subscriptions/[id]/deliveries/[day]",
    load: mod.subscriptionDelivery,
    method: "GET",
    url: () => `/api/statements/subscriptions/${NO_DRAFT}/deliveries/2026-01-05`,
    params: () => ({ id: NO_DRAFT, day: "2026-01-05" }),
    allowed: EVERYONE,
  },
  {
    name: "POST /api/statements/subscriptions/[id]/deliveries/[day]/retry",
    load: mod.subscriptionRetry,
    method: "POST",
    url: () => `/api/statements/subscriptions/${NO_DRAFT}/deliveries/2026-01-05/retry`,
    params: () => ({ id: NO_DRAFT, day: "2026-01-05" }),
    allowed: ADMIN_ONLY,
  },
];

describe("permissions on every route", () => {
  for (const route of ROUTES) {
    it(`${route.name}: 401 without a session`, async () => {
      const r = await invoke(route.load, route.method, route.url(), {
        params: route.params?.(),
        body: route.body?.("viewer"),
      });
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe("unauthenticated");
    });
    for (const role of ROLES) {
      const allowed = route.allowed.includes(role);
      it(`${route.name}: ${role} is ${allowed ? "allowed" : "refused with 403"}`, async () => {
        const r = await invoke(route.load, route.method, route.url(), {
          cookie: await cookieFor(users[role]),
          params: route.params?.(),
          body: route.body?.(role),
        });
        if (allowed) {
          expect([401, 403]).not.toContain(r.status);
          expect(r.status).toBeLessThan(500);
        } else {
          expect(r.status).toBe(403);
          expect(r.json.error.code).toBe("forbidden");
        }
      });
    }
  }

  it("covers every handler under app/api in the table above (or names why not)", async () => {
    const NOT_IN_TABLE: Record<string, string> = {
      "GET /api/health": "public: no session",
      "POST /api/account-link": "public: a one-time link's token, no session (credential-links.test.ts)",
      "POST /api/account-link/use": "public: a one-time link's token, no session (credential-links.test.ts)",
      "GET /api/auth/[...nextauth]": "next-auth's own endpoints",
      "POST /api/auth/[...nextauth]": "next-auth's own endpoints",
      "POST /api/bank-events/[token]": "the bank's notifications: a secret path and a signature, no session",
      "GET /api/events": "an event stream that stays open: the browser tests read it",
    };
    const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? walk(p) : e.name === "route.ts" ? [p] : [];
      });
    const missing: string[] = [];
    for (const file of walk(path.join(root, "app/api"))) {
      const url = `/${path.relative(path.join(root, "app"), path.dirname(file))}`;
      const m = (await import(file)) as Record<string, unknown>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter(
        (x) => typeof m[x] === "function",
      )) {
        const name = `${method} ${url}`;
        if (!ROUTES.some((r) => r.name === name) && !(name in NOT_IN_TABLE)) missing.push(name);
      }
    }
    expect(missing).toEqual([]);
  });

  it("answers the health check without a session", async () => {
    const r = await invoke(mod.health, "GET", "/api/health");
    expect({ status: r.status, json: r.json }).toEqual({ status: 200, json: { status: "ok" } });
  });
});

describe("payments as CSV", () => {
  it("exports every payment the filters match, in the list's order, with every field of each record", async () => {
    const account = await customer.account("DDA", 1_000);
    const amounts = [1_250.5, 99.99, 30_000, 1_250.5];
    const ids: string[] = [];
    for (const [i, amount] of amounts.entries()) {
      const r = await sandbox<{ payment_id: string }>(bank, "POST", "/sandbox/incoming-wires", {
        accountNumber: account,
        amount,
        originatorName: i === 1 ? "=HYPERLINK(1)" : `EXPORT ORIGINATOR ${i}`,
        originatorToBeneficiaryInfo: `INVOICE, "Q${i}"`,
      });
      ids.push(r.payment_id);
    }
    const today = businessDayFormatter(config().timeZone)(new Date());
    const filter = `account=${account}&from=${addDays(today, -1)}&to=${today}&sort=amount-desc`;
    // The list page by page, and the export of the same filter in one file.
    const listed: { paymentId: string; amountCents: number }[] = [];
    for (const page of [1, 2]) {
      const r = await invoke(mod.payments, "GET", `/api/payments?${filter}&pageSize=25&page=${page}`, {
        as: users.viewer,
      });
      expect(r.status).toBe(200);
      listed.push(...r.json.payments);
    }
    expect(listed.map((p) => p.paymentId).sort()).toEqual([...ids].sort());
    const csv = await invoke(mod.paymentsExport, "GET", `/api/payments/export?${filter}`, {
      as: users.viewer,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toBe(
      `attachment; filename="payments-${account}-${addDays(today, -1)}-to-${today}.csv"`,
    );
    const [head, ...rows] = parseCsv(csv.text);
    expect(head.slice(0, 7)).toEqual([
      "Date",
      "Payment ID",
      "Direction",
      "Status",
      "Amount",
      "Counterparty",
      "Counterparty account",
    ]);
    expect(head).toContain("imad");
    expect(rows.map((r) => r[1])).toEqual(listed.slice(0, 4).map((p) => p.paymentId));
    expect(rows.map((r) => r[4])).toEqual(["30000.00", "1250.50", "1250.50", "99.99"]);
    const cheap = rows.find((r) => r[4] === "99.99") as string[];
    // A text that a spreadsheet would run as a formula is written as text; quotes and commas survive.
    expect(cheap[5]).toBe("'=HYPERLINK(1)");
    expect(cheap[head.indexOf("originator_to_beneficiary_info_line")]).toBe('INVOICE, "Q1"');
    expect(cheap[head.indexOf("direction")]).toBe("Incoming");
    // The filters apply: no outgoing wire on this account.
    const outgoing = await invoke(
      mod.paymentsExport,
      "GET",
      `/api/payments/export?${filter}&direction=outgoing`,
      {
        as: users.viewer,
      },
    );
    expect(parseCsv(outgoing.text)).toHaveLength(1);
  });
});

describe("junk in any query parameter", () => {
  // Every query parameter a route reads, each given values a client might send by mistake or on
  // purpose: the answer is a 400 naming a field or a normal answer, never a 500 or a hang.
  const QUERIED: { route: string; url: () => string; params?: () => Record<string, string> }[] = [
    {
      route: "GET /api/accounts/[accountNumber]/history",
      url: () => `/api/accounts/${dda}/history?from=2026-11-01&to=2026-11-20&order=D`,
      params: () => ({ accountNumber: dda }),
    },
    {
      route: "GET /api/admin/audit",
      url: () => "/api/admin/audit?actor=a&action=b&from=2026-11-01&to=2026-11-02",
    },
    {
      route: "GET /api/admin/audit/export",
      url: () => "/api/admin/audit/export?actor=a&action=b&from=2026-11-01&to=2026-11-02",
    },
    { route: "GET /api/drafts", url: () => "/api/drafts?status=open" },
    { route: "GET /api/inbox", url: () => "/api/inbox?view=items" },
    { route: "GET /api/notifications", url: () => "/api/notifications?limit=10" },
    {
      route: "GET /api/payments",
      url: () =>
        `/api/payments?account=${dda}&from=2026-01-01&to=2026-01-31&direction=all&status=all&sort=date-desc&page=1&pageSize=25`,
    },
    {
      route: "GET /api/payments/export",
      url: () =>
        `/api/payments/export?account=${dda}&from=2026-01-01&to=2026-01-31&direction=all&status=all&sort=date-desc`,
    },
    {
      route: "GET /api/payments/[id]",
      url: () => `/api/payments/O000000NOSUCH?account=${dda}`,
      params: () => ({ id: "O000000NOSUCH" }),
    },
    {
      route: "GET /api/wire-summaries",
      url: () => `/api/wire-summaries?accountNumber=${dda}&date=2026-11-23&direction=I`,
    },
    { route: "GET /api/wire-summaries", url: () => "/api/wire-summaries?uniqueId=bm90LWEtcmVhbC1pZA" },
    {
      route: "GET /api/wires/duplicates",
      url: () => "/api/wires/duplicates?beneficiary_account_number=1&amountCents=100",
    },
  ];
  const JUNK = [
    "",
    " ",
    "2026-02-30",
    "2026-13-01",
    "0000-00-00",
    "99999-01-01",
    "-1",
    "0",
    "1e309",
    "NaN",
    "0x10",
    "x".repeat(5000),
    "\u0000",
    "%",
    "'; DROP TABLE audit_log;--",
    "[object Object]",
    "🙂",
  ];

  it("covers every route that reads a query (apart from the routes' own cases above)", async () => {
    const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? walk(p) : e.name === "route.ts" ? [p] : [];
      });
    const reading = walk(path.join(root, "app/api"))
      .filter((f) => /\bquery: /.test(fs.readFileSync(f, "utf8")))
      .map((f) => `GET /${path.relative(path.join(root, "app"), path.dirname(f))}`);
    expect(reading.filter((name) => !QUERIED.some((q) => q.route === name))).toEqual([]);
  });

  for (const q of QUERIED) {
    const names = [...new URL(q.url(), "http://x").searchParams.keys()];
    it(`${q.route}?${names.join("&")}: 400 naming a field or an answer, never 500`, async () => {
      const route = ROUTES.find((r) => r.name === q.route);
      if (!route) throw new Error(`no route ${q.route}`);
      const cookie = await cookieFor(users.admin);
      const tried: string[] = [];
      for (const name of names) {
        const cases = [
          ...JUNK.map((v) => {
            const u = new URL(q.url(), "http://x");
            u.searchParams.set(name, v);
            return u;
          }),
          // The same parameter twice.
          (() => {
            const u = new URL(q.url(), "http://x");
            u.searchParams.append(name, u.searchParams.get(name) ?? "");
            return u;
          })(),
        ];
        for (const u of cases) {
          const url = `${u.pathname}${u.search}`;
          const r = await invoke(route.load, "GET", url, { cookie, params: q.params?.() });
          tried.push(`${r.status} ${name}=${u.searchParams.get(name)?.slice(0, 20)}`);
          expect(r.status, url.slice(0, 200)).toBeLessThan(500);
          if (r.status === 400) expect(r.json.error.fields?.length, url.slice(0, 200)).toBeGreaterThan(0);
        }
      }
      expect(tried.length).toBe(names.length * (JUNK.length + 1));
    });
  }
});

describe("junk for a body", () => {
  const BODIES: [string, string][] = [
    ["empty", ""],
    ["cut short", '{"a":'],
    ["null", "null"],
    ["an array", "[]"],
    ["a number", "42"],
    ["a string", '"x"'],
    ["a prototype key", '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"x":1}}}'],
    ["nested 100,000 deep", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
    ["not UTF-8 JSON", "\ud800"],
  ];

  it("every route that changes something: a 400 naming a field or an answer, never 500", async () => {
    const cookie = await cookieFor(users.admin);
    for (const route of ROUTES.filter((r) => r.method !== "GET")) {
      for (const [label, rawBody] of BODIES) {
        const r = await invoke(route.load, route.method, route.url(), {
          cookie,
          params: route.params?.(),
          rawBody,
        });
        expect(r.status, `${route.name} with ${label}`).toBeLessThan(500);
        if (r.status === 400)
          expect(r.json.error.fields?.length, `${route.name} with ${label}`).toBeGreaterThan(0);
      }
    }
  });

  it("refuses a body over 64 KiB before reading the rest of it, naming the body", async () => {
    const cookie = await cookieFor(users.admin);
    const big = JSON.stringify({
      AccountNumberFrom: sen,
      AccountNumberTo: dda,
      Amount: "1.00",
      pad: "x".repeat(70_000),
    });
    const r = await invoke(mod.transfers, "POST", "/api/transfers", { cookie, rawBody: big });
    expect(r.status).toBe(400);
    expect(r.json.error.fields).toEqual([{ field: "body", message: "must be at most 65,536 bytes" }]);
    // A declared length over the limit is refused on its word.
    const declared = await invoke(mod.transfers, "POST", "/api/transfers", {
      cookie,
      rawBody: "{}",
      headers: { "content-length": String(10 * 1024 * 1024) },
    });
    expect(declared.status).toBe(400);
    expect(declared.json.error.fields[0].field).toBe("body");
    // Just under the limit is read, and judged on its fields.
    const under = JSON.stringify({ pad: "x".repeat(60_000) });
    const ok = await invoke(mod.transfers, "POST", "/api/transfers", { cookie, rawBody: under });
    expect(ok.status).toBe(400);
    expect(ok.json.error.fields.map((f: { field: string }) => f.field)).not.toContain("body");
  });
});

describe("cross-site requests", () => {
  const CROSS_SITE = { error: { code: "forbidden", message: "Cross-site requests are not accepted." } };
  const STATE_CHANGING = ["POST", "PUT", "PATCH", "DELETE"];
  const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

  /** Every route.ts under app/api, so that a route added later is covered too. */
  function routeFiles(dir = path.join(ROOT, "app/api")): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
    });
  }

  it("refuses every state-changing API handler with 403 when the request comes from another site", async () => {
    const cookie = await cookieFor(users.admin);
    let checked = 0;
    for (const file of routeFiles()) {
      const load = () => import(file);
      const m = (await load()) as RouteModule;
      for (const method of STATE_CHANGING.filter((x) => typeof m[x] === "function")) {
        const where = `${method} ${path.relative(ROOT, file)}`;
        const params = { accountNumber: dda, id: users.viewer.id, nextauth: ["callback", "credentials"] };
        const byOrigin = await invoke(load, method, "/api/x", {
          cookie,
          params,
          body: {},
          headers: { origin: "https://attacker.example", host: "127.0.0.1:3999" },
        });
        expect({ status: byOrigin.status, json: byOrigin.json }, where).toEqual({
          status: 403,
          json: CROSS_SITE,
        });
        const bySite = await invoke(load, method, "/api/x", {
          cookie,
          params,
          body: {},
          headers: { "sec-fetch-site": "cross-site", host: "127.0.0.1:3999" },
        });
        expect({ status: bySite.status, json: bySite.json }, where).toEqual({
          status: 403,
          json: CROSS_SITE,
        });
        checked++;
      }
    }
    // admin users POST and PATCH, TOTP POST, DELETE and confirm, next-auth POST
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it("compares the scheme and the port of the origin, not the host alone", async () => {
    const cookie = await cookieFor(users.admin);
    for (const origin of ["https://127.0.0.1:3999", "http://127.0.0.1:4000", "http://127.0.0.1"]) {
      const r = await invoke(mod.adminUsers, "POST", "/api/admin/users", {
        cookie,
        body: {},
        headers: { origin, host: "127.0.0.1:3999" },
      });
      expect({ status: r.status, json: r.json }, origin).toEqual({ status: 403, json: CROSS_SITE });
    }
    // Behind a TLS proxy the browser's origin is https, and the proxy says so: believed only from
    // a proxy named in TRUSTED_PROXIES (the peer is the rightmost X-Forwarded-For entry).
    const proxied = () =>
      invoke(mod.adminUsers, "POST", "/api/admin/users", {
        cookie,
        body: {},
        headers: {
          origin: "https://treasury.example",
          host: "127.0.0.1:3999",
          "x-forwarded-host": "treasury.example",
          "x-forwarded-proto": "https",
          "x-forwarded-for": "203.0.113.9, 10.0.0.2",
        },
      });
    expect((await proxied()).status).toBe(403);
    process.env.TRUSTED_PROXIES = "10.0.0.0/24";
    try {
      expect((await proxied()).status).toBe(400);
    } finally {
      delete process.env.TRUSTED_PROXIES;
    }
  });

  it("lets same-origin and non-browser state changes, and cross-site reads, through", async () => {
    const cookie = await cookieFor(users.admin);
    const sameOrigin = await invoke(mod.adminUsers, "POST", "/api/admin/users", {
      cookie,
      body: {},
      headers: { origin: "http://127.0.0.1:3999", host: "127.0.0.1:3999", "sec-fetch-site": "same-origin" },
    });
    expect(sameOrigin.status).toBe(400);
    const noBrowser = await invoke(mod.adminUsers, "POST", "/api/admin/users", { cookie, body: {} });
    expect(noBrowser.status).toBe(400);
    const read = await invoke(mod.me, "GET", "/api/me", {
      cookie,
      headers: { origin: "https://attacker.example", host: "127.0.0.1:3999", "sec-fetch-site": "cross-site" },
    });
    expect(read.status).toBe(200);
  });
});

describe("sessions", () => {
  it("refuses a session idle for longer than SESSION_IDLE_SECONDS", async () => {
    const old = Math.floor(Date.now() / 1000) - 901;
    const r = await invoke(mod.me, "GET", "/api/me", {
      cookie: await cookieFor(users.viewer, { lastActivity: old }),
    });
    expect(r.status).toBe(401);
    expect(r.json.error.message).toMatch(/without activity/);
  });

  it("refuses a session older than 12 hours however active", async () => {
    const now = Math.floor(Date.now() / 1000);
    const r = await invoke(mod.me, "GET", "/api/me", {
      cookie: await cookieFor(users.viewer, { signedInAt: now - 12 * 3600 - 1, lastActivity: now }),
    });
    expect(r.status).toBe(401);
    expect(r.json.error.message).toMatch(/12-hour/);
  });

  it("refuses a cookie signed with another secret", async () => {
    const token = await encode({ secret: "another-secret", token: { sub: users.admin.id } });
    const r = await invoke(mod.me, "GET", "/api/me", { cookie: `next-auth.session-token=${token}` });
    expect(r.status).toBe(401);
  });

  it("returns the signed-in user as SessionUser", async () => {
    const r = await invoke(mod.me, "GET", "/api/me", { cookie: await cookieFor(users.approver) });
    expect(r.json).toEqual({
      id: users.approver.id,
      email: "approver@routes.example",
      name: "Route approver",
      role: "approver",
      totpEnabled: false,
      resetPending: false,
      votesEmbargoedUntil: null,
    });
  });
});

describe("accounts", () => {
  it("lists every account with exact cents and totals that add up", async () => {
    const r = await invoke(mod.accounts, "GET", "/api/accounts", { cookie: await cookieFor(users.viewer) });
    expect(r.status).toBe(200);
    const body = r.json as AccountsResponse;
    const byNumber = Object.fromEntries(body.accounts.map((a) => [a.accountNumber, a]));
    expect(byNumber[dda]).toMatchObject({
      type: "DDA",
      availableCents: 25_000_010,
      currentCents: 25_000_010,
      status: "Active",
    });
    expect(byNumber[sen]).toMatchObject({ type: "SEN", availableCents: 100_005 });
    expect(body.totals.availableCents).toBe(body.accounts.reduce((s, a) => s + a.availableCents, 0));
    expect(Number.isNaN(Date.parse(body.asOf))).toBe(false);
  });

  it("returns one account with its balance record and cash-manager balance", async () => {
    const r = await invoke(mod.account, "GET", `/api/accounts/${sen}`, {
      cookie: await cookieFor(users.viewer),
      params: { accountNumber: sen },
    });
    expect(r.status).toBe(200);
    const body = r.json as AccountDetailResponse;
    expect(body.account.accountNumber).toBe(sen);
    expect(body.balance.ACTNBR).toBe(sen);
    expect(body.cashManager?.availableCents).toBe(100_005);
  });

  it("passes the bank's refusal on as 422 bank_rejected with its message", async () => {
    const r = await invoke(mod.balance, "GET", "/api/accounts/9999999999/balance", {
      cookie: await cookieFor(users.viewer),
      params: { accountNumber: "9999999999" },
    });
    expect(r.status).toBe(422);
    expect(r.json.error).toEqual({
      code: "bank_rejected",
      message: "Account not found",
      fields: [{ field: "accountNumber", message: "Account not found" }],
    });
  });

  it("answers 404 not_found naming it for an account number that is not digits", async () => {
    const r = await invoke(mod.account, "GET", "/api/accounts/abc", {
      cookie: await cookieFor(users.viewer),
      params: { accountNumber: "abc" },
    });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe("not_found");
    expect(r.json.error.fields[0].field).toBe("accountNumber");
  });

  it("answers 503 bank_unavailable when the bank cannot be reached", async () => {
    const tokens = new TokenManager({
      db,
      bankUrl: "http://127.0.0.1:9",
      subscriptionKey: "sk_unreachable_key",
    });
    setBankClient(
      new BankClient({
        bankUrl: "http://127.0.0.1:9",
        subscriptionKey: "sk_unreachable_key",
        tokens,
        retryBaseMs: 5,
      }),
    );
    try {
      const r = await invoke(mod.accounts, "GET", "/api/accounts", { cookie: await cookieFor(users.viewer) });
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe("bank_unavailable");
    } finally {
      setBankClient(undefined);
    }
  });
});

describe("history", () => {
  const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());

  it("reads a range with one history call when the bank has it all", async () => {
    await sandbox(bank, "POST", "/sandbox/deposits", {
      accountNumber: sen,
      amount: 12.34,
      description: "Invoice 1001",
    });
    const r = await invoke(
      mod.history,
      "GET",
      `/api/accounts/${sen}/history?from=${today()}&to=${today()}&order=A`,
      {
        cookie: await cookieFor(users.viewer),
        params: { accountNumber: sen },
      },
    );
    expect(r.status).toBe(200);
    const body = r.json as HistoryResponse;
    expect(body.source).toBe("history");
    const deposit = body.items.find((i) => i.amountCents === 1234);
    expect(deposit).toMatchObject({
      direction: "credit",
      description: expect.stringMatching(/Invoice 1001|Deposit/),
    });
  });

  it.each([
    ["to", "zzz"],
    ["from", "zzz"],
    ["to", "2026-13-01"],
    ["to", "9999-99-99"],
    ["from", "2026-02-30"],
    ["from", "2026-1-01"],
    ["order", "zzz"],
  ])("answers 400 naming %s for the value %s, never 500", async (field, value) => {
    const r = await invoke(
      mod.history,
      "GET",
      `/api/accounts/${sen}/history?${field}=${encodeURIComponent(value)}`,
      {
        cookie: await cookieFor(users.viewer),
        params: { accountNumber: sen },
      },
    );
    expect(r.status).toBe(400);
    expect(r.json.error.fields.map((f: { field: string }) => f.field)).toEqual([field]);
  });

  it("switches to extendedhistory day by day when MOREDATA is Y", async () => {
    // 530 deposits today: more than the 520 one history call returns.
    for (let i = 0; i < 530; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          sandbox(bank, "POST", "/sandbox/deposits", {
            accountNumber: busy,
            amount: 1 + i + k,
            description: `Lockbox ${i + k}`,
          }),
        ),
      );
    }
    const from = new Date(Date.parse(`${today()}T00:00:00Z`) - 2 * 86_400_000).toISOString().slice(0, 10);
    const r = await invoke(mod.history, "GET", `/api/accounts/${busy}/history?from=${from}&to=${today()}`, {
      cookie: await cookieFor(users.viewer),
      params: { accountNumber: busy },
    });
    expect(r.status).toBe(200);
    const body = r.json as HistoryResponse;
    expect(body.source).toBe("extendedhistory");
    expect(body.items.length).toBeGreaterThanOrEqual(530);
    expect(new Set(body.items.map((i) => i.id)).size).toBe(body.items.length);
    expect(body.truncatedDays).toEqual([]);
    expect(body.notice).toMatch(/day by day/);
    expect(body.order).toBe("D");
  }, 120_000);

  it("refuses a range that ends before it starts, or spans more than 93 days", async () => {
    const cookie = await cookieFor(users.viewer);
    const backwards = await invoke(
      mod.history,
      "GET",
      `/api/accounts/${dda}/history?from=2026-03-02&to=2026-03-01`,
      {
        cookie,
        params: { accountNumber: dda },
      },
    );
    expect(backwards.status).toBe(400);
    expect(backwards.json.error.fields).toEqual([
      { field: "from", message: "The start date must be on or before the end date." },
    ]);
    const long = await invoke(
      mod.history,
      "GET",
      `/api/accounts/${dda}/history?from=2026-01-01&to=2026-04-04`,
      {
        cookie,
        params: { accountNumber: dda },
      },
    );
    expect(long.status).toBe(400);
    expect(long.json.error.fields[0].message).toMatch(/93 days/);
    const badDate = await invoke(mod.history, "GET", `/api/accounts/${dda}/history?from=2026-02-30`, {
      cookie,
      params: { accountNumber: dda },
    });
    expect(badDate.status).toBe(400);
    // A broken end date alone is a field error too, never a server error.
    const badEnd = await invoke(mod.history, "GET", `/api/accounts/${dda}/history?to=zzz`, {
      cookie,
      params: { accountNumber: dda },
    });
    expect(badEnd.status).toBe(400);
    expect(badEnd.json.error.fields[0].field).toBe("to");
  });
});

describe("user administration", () => {
  it("invites a user by a link e-mailed to them (no password to anyone else), and refuses a duplicate e-mail", async () => {
    const cookie = await cookieFor(users.admin);
    const created = await invoke(mod.adminUsers, "POST", "/api/admin/users", {
      cookie,
      body: { email: "Dana@Routes.example", name: "Dana Treasurer", role: "approver" },
    });
    // An approver's role waits for a second administrator: until then Dana is a viewer.
    expect(created.status).toBe(202);
    expect(created.json.user).toMatchObject({
      email: "dana@routes.example",
      role: "viewer",
      disabled: false,
      resetPending: true,
    });
    expect(created.json.temporaryPassword).toBeUndefined();
    expect(Date.parse(created.json.invitationExpiresAt)).toBeGreaterThan(Date.now());
    const secondAdmin = await testUser(db, "admin", "second-admin@routes.example", "Second admin");
    const change = created.json.pending[0].id as string;
    const approved = await invoke(
      () => import("../../app/api/admin/changes/[id]/approve/route.ts"),
      "POST",
      `/api/admin/changes/${change}/approve`,
      { as: secondAdmin, params: { id: change } },
    );
    expect(approved.status).toBe(200);
    const dana = (
      (await invoke(mod.adminUsers, "GET", "/api/admin/users", { cookie })).json as AdminUsersResponse
    ).users.find((u) => u.email === "dana@routes.example");
    expect(dana?.role).toBe("approver");
    const again = await invoke(mod.adminUsers, "POST", "/api/admin/users", {
      cookie,
      body: { email: "dana@routes.example", name: "Dana", role: "viewer" },
    });
    expect(again.status).toBe(409);
    const list = (await invoke(mod.adminUsers, "GET", "/api/admin/users", { cookie }))
      .json as AdminUsersResponse;
    expect(JSON.stringify(list)).not.toMatch(/password|argon2/i);
  });

  it("validates the new user's fields", async () => {
    const r = await invoke(mod.adminUsers, "POST", "/api/admin/users", {
      cookie: await cookieFor(users.admin),
      body: { email: "not-an-email", name: "", role: "king" },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      "email",
      "name",
      "role",
    ]);
  });

  it("disables a user, whose session then stops working at once", async () => {
    const target = await createUser(db, {
      email: "leaver@routes.example",
      name: "Leaver",
      role: "viewer",
      password: "y".repeat(12),
    });
    const cookie = await cookieFor(target);
    expect((await invoke(mod.me, "GET", "/api/me", { cookie })).status).toBe(200);
    const r = await invoke(mod.adminUser, "PATCH", `/api/admin/users/${target.id}`, {
      cookie: await cookieFor(users.admin),
      params: { id: target.id },
      body: { disabled: true },
    });
    expect(r.status).toBe(200);
    expect(r.json.user.disabled).toBe(true);
    expect((await invoke(mod.me, "GET", "/api/me", { cookie })).status).toBe(401);
  });

  it("does not let an administrator disable or demote themselves", async () => {
    const r = await invoke(mod.adminUser, "PATCH", `/api/admin/users/${users.admin.id}`, {
      cookie: await cookieFor(users.admin),
      params: { id: users.admin.id },
      body: { role: "viewer" },
    });
    expect(r.status).toBe(409);
  });

  it("records who did what in the append-only audit log", async () => {
    const r = await invoke(mod.audit, "GET", "/api/admin/audit", { cookie: await cookieFor(users.admin) });
    const entries = r.json.entries as {
      action: string;
      actorEmail: string;
      target: string;
      result: string;
    }[];
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: "user.update",
        actorEmail: "admin@routes.example",
        target: "leaver@routes.example",
        result: "ok",
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: "user.update",
        target: "admin@routes.example",
        result: "refused: own account",
      }),
    );
    await expect(db.query("UPDATE audit_log SET result = 'edited'")).rejects.toThrow(/append-only/);
    await expect(db.query("DELETE FROM audit_log")).rejects.toThrow(/append-only/);
  });
});
