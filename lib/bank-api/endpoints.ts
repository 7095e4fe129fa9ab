// Every endpoint of Banking API Service v2 in one table: the bank routes and validates by it,
// the client calls by it, and the OpenAPI document is generated from it.
import { z } from "zod";
import {
  accountListQuery,
  accountListResponse,
  balanceQuery,
  balanceResponse,
  cashManagerBalanceResponse,
  createSenRequest,
  createSenResponse,
} from "./accounts.ts";
import { extendedHistoryQuery, historyQuery, historyResponse } from "./history.ts";
import {
  initiatePaymentRequest,
  paymentActionQuery,
  paymentListQuery,
  paymentListResponse,
  paymentResponse,
} from "./payments.ts";
import { transferSenRequest, transferSenResponse } from "./transfers.ts";
import {
  registerWebhookRequest,
  WebhookSchema,
  webhookDeleteQuery,
  webhookDeleteResponse,
  webhookListQuery,
  webhookListResponse,
} from "./webhooks.ts";
import { wireSummaryQuery, wireSummaryResponse } from "./wiresummary.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface EndpointDef {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: "Token" | "Accounts" | "Transfers" | "History" | "E-wire" | "Payments" | "Webhooks";
  /** false only for the token call, which takes the subscription key alone. */
  needsToken: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** Accepts `Idempotency-Key` (transfersen, POST /v2/payment and POST /v2/payment/backup). */
  idempotent?: boolean;
  /** Root element of an XML response, and the element of each item when the body is an array. */
  xmlRoot: string;
  xmlItem?: string;
}

const emptyQuery = z.object({});

export const endpoints = {
  token: {
    method: "GET",
    path: "/v2/access/token",
    summary: "Exchange the subscription key for a JWT, returned in the Authorization response header",
    tag: "Token",
    needsToken: false,
    query: emptyQuery,
    xmlRoot: "TokenResponse",
  },
  accountList: {
    method: "GET",
    path: "/v2/account/list",
    summary: "Accounts of the subscription key's customer",
    tag: "Accounts",
    needsToken: true,
    query: accountListQuery,
    response: accountListResponse,
    xmlRoot: "AccountListResponse",
  },
  balance: {
    method: "GET",
    path: "/v2/account/balance",
    summary: "Balance record of one account",
    tag: "Accounts",
    needsToken: true,
    query: balanceQuery,
    response: balanceResponse,
    xmlRoot: "BalanceResponse",
  },
  cashManagerBalance: {
    method: "GET",
    path: "/v2/account/cashmanagerbalance",
    summary: "Cash-manager available balance and open date of one account",
    tag: "Accounts",
    needsToken: true,
    query: balanceQuery,
    response: cashManagerBalanceResponse,
    xmlRoot: "CashManagerBalanceResponse",
  },
  createSen: {
    method: "POST",
    path: "/v2/account/createsen",
    summary: "Open a SEN account for the customer",
    tag: "Accounts",
    needsToken: true,
    body: createSenRequest,
    response: createSenResponse,
    xmlRoot: "CreateSenResponse",
  },
  transferSen: {
    method: "POST",
    path: "/v2/account/transfersen",
    summary: "Move money at once between two SEN accounts",
    tag: "Transfers",
    needsToken: true,
    body: transferSenRequest,
    response: transferSenResponse,
    idempotent: true,
    xmlRoot: "TransferResponse",
  },
  history: {
    method: "GET",
    path: "/v2/account/history",
    summary: "Transaction history over a date range (at most 520 items)",
    tag: "History",
    needsToken: true,
    query: historyQuery,
    response: historyResponse,
    xmlRoot: "HistoryResponse",
  },
  extendedHistory: {
    method: "GET",
    path: "/v2/account/extendedhistory",
    summary: "Transaction history of one day (at most 5,000 items)",
    tag: "History",
    needsToken: true,
    query: extendedHistoryQuery,
    response: historyResponse,
    xmlRoot: "HistoryResponse",
  },
  wireSummary: {
    method: "GET",
    path: "/v2/account/wiresummary",
    summary: "E-wire summaries by date and direction, transaction number or unique id",
    tag: "E-wire",
    needsToken: true,
    query: wireSummaryQuery,
    response: wireSummaryResponse,
    xmlRoot: "WireSummaryResponse",
  },
  initiatePayment: {
    method: "POST",
    path: "/v2/payment",
    summary: "Send an outgoing wire",
    tag: "Payments",
    needsToken: true,
    body: initiatePaymentRequest,
    response: paymentResponse,
    idempotent: true,
    xmlRoot: "PaymentResponse",
  },
  listPayments: {
    method: "GET",
    path: "/v2/payment",
    summary: "Wire payments of an account by id or date range",
    tag: "Payments",
    needsToken: true,
    query: paymentListQuery,
    response: paymentListResponse,
    xmlRoot: "ArrayOfPayment",
    xmlItem: "Payment",
  },
  paymentAction: {
    method: "PUT",
    path: "/v2/payment",
    summary: "Approve, cancel or return an incoming wire",
    tag: "Payments",
    needsToken: true,
    query: paymentActionQuery,
    response: paymentResponse,
    xmlRoot: "PaymentResponse",
  },
  paymentActionBackup: {
    method: "PUT",
    path: "/v2/payment/backup",
    summary: "Log a payment action for replay while the wire system is down",
    tag: "Payments",
    needsToken: true,
    query: paymentActionQuery,
    response: paymentResponse,
    xmlRoot: "PaymentResponse",
  },
  initiatePaymentBackup: {
    method: "POST",
    path: "/v2/payment/backup",
    summary: "Log an outgoing wire for replay while the wire system is down",
    tag: "Payments",
    needsToken: true,
    body: initiatePaymentRequest,
    response: paymentResponse,
    // One key space with POST /v2/payment: a wire logged here and retried there is one wire.
    idempotent: true,
    xmlRoot: "PaymentResponse",
  },
  registerWebhook: {
    method: "POST",
    path: "/v2/webhooks/register",
    summary: "Register a balance-change webhook",
    tag: "Webhooks",
    needsToken: true,
    body: registerWebhookRequest,
    response: WebhookSchema,
    xmlRoot: "WebHook",
  },
  listWebhooks: {
    method: "GET",
    path: "/v2/webhooks/get",
    summary: "Webhooks of the customer, of one account, or one by id",
    tag: "Webhooks",
    needsToken: true,
    query: webhookListQuery,
    response: webhookListResponse,
    xmlRoot: "ArrayOfWebHook",
    xmlItem: "WebHook",
  },
  deleteWebhook: {
    method: "DELETE",
    path: "/v2/webhooks/delete",
    summary: "Delete a webhook",
    tag: "Webhooks",
    needsToken: true,
    query: webhookDeleteQuery,
    response: webhookDeleteResponse,
    xmlRoot: "string",
  },
} as const satisfies Record<string, EndpointDef>;

export type EndpointName = keyof typeof endpoints;
