// A full integration flow written the way a team would write it against a client generated from
// the bank's /openapi.json (openapi-typescript types, openapi-fetch calls). The test that uses it
// generates `./bank-api.d.ts` beside it first, type-checks this folder (its own tsconfig), then runs it.
import createClient, { type Middleware } from "openapi-fetch";
import { parseXmlResponse, toXml } from "../../lib/bank-api/xml.ts";
import type { paths } from "./bank-api";

export interface FlowInput {
  baseUrl: string;
  subscriptionKey: string;
  /** Two SEN accounts of the customer (money moves from the first) and a DDA with funds. */
  senFrom: string;
  senTo: string;
  dda: string;
  format: "json" | "xml";
  idempotencyKey: string;
}

export interface FlowResult {
  accounts: number;
  balanceBefore: number;
  balanceAfter: number;
  transferReplayedSame: boolean;
  historyItems: number;
  paymentStatus: string;
  paymentsListed: number;
  webhookId: string;
  webhooksListed: number;
  deleted: string;
}

export async function runFlow(input: FlowInput): Promise<FlowResult> {
  const xml = input.format === "xml";
  const client = createClient<paths>({
    baseUrl: input.baseUrl,
    headers: {
      "Ocp-Apim-Subscription-Key": input.subscriptionKey,
      ...(xml ? { Accept: "application/xml", "Content-Type": "application/xml" } : {}),
    },
    ...(xml ? { bodySerializer: (body: unknown) => toXml("Request", body) } : {}),
  });
  // XML answers are read with the same element names as JSON; the generated types describe both.
  const parse = xml ? ({ parseAs: "text" } as const) : {};
  const read = <T>(r: { data?: unknown; error?: unknown; response: Response }): T => {
    if (!r.response.ok)
      throw new Error(`${r.response.url} answered ${r.response.status}: ${JSON.stringify(r.error)}`);
    return (xml ? parseXmlResponse(r.data as string) : r.data) as T;
  };

  const token = await client.GET("/v2/access/token");
  if (!token.response.ok) throw new Error(`token: ${token.response.status}`);
  const jwt: string = token.response.headers.get("Authorization") ?? "";
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${jwt}`);
      return request;
    },
  };
  client.use(auth);

  // XML text has no types and no one-item arrays: `many` reads a repeated element either way.
  const many = (x: unknown): unknown[] => (Array.isArray(x) ? x : x === undefined || x === "" ? [] : [x]);

  type AccountList = paths["/v2/account/list"]["get"]["responses"]["200"]["content"]["application/json"];
  const list = read<AccountList>(await client.GET("/v2/account/list", { params: { query: {} }, ...parse }));
  const accounts = many(
    many(list.ResponseData)[0] &&
      (many(list.ResponseData)[0] as AccountList["ResponseData"][number]).CUSTACCT,
  ).length;

  type Balance = paths["/v2/account/balance"]["get"]["responses"]["200"]["content"]["application/json"];
  const balance = async () => {
    const b = read<Balance>(
      await client.GET("/v2/account/balance", {
        params: { query: { accountNumber: input.senFrom } },
        ...parse,
      }),
    );
    return Number((many(b.ResponseData)[0] as Balance["ResponseData"][number]).AVAILBAL);
  };
  const balanceBefore = await balance();

  type Transfer = paths["/v2/account/transfersen"]["post"]["responses"]["200"]["content"]["application/json"];
  const transfer = () =>
    client.POST("/v2/account/transfersen", {
      params: { header: { "Idempotency-Key": input.idempotencyKey } },
      body: {
        AccountNumberFrom: input.senFrom,
        AccountNumberTo: input.senTo,
        Amount: 12.34,
        SequenceNumber: 7,
      },
      ...parse,
    });
  const first = read<Transfer>(await transfer());
  const again = read<Transfer>(await transfer());
  const balanceAfter = await balance();

  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  type History = paths["/v2/account/history"]["get"]["responses"]["200"]["content"]["application/json"];
  const history = read<History>(
    await client.GET("/v2/account/history", {
      params: { query: { accountNumber: input.senFrom, beginDate: day, endDate: day, displayOrder: "D" } },
      ...parse,
    }),
  );
  const historyItems = many(history.ResponseData).reduce<number>(
    (n, page) => n + many((page as History["ResponseData"][number]).TRANSACTION).length,
    0,
  );

  type Payment = paths["/v2/payment"]["post"]["responses"]["200"]["content"]["application/json"];
  const payment = read<Payment>(
    await client.POST("/v2/payment", {
      body: {
        originator_account_number: input.dda,
        amount: 25.5,
        receiving_bank_routing_id: "021000021",
        beneficiary_name: "Generated Client Payee",
        beneficiary_account_number: "000123456789",
        beneficiary_address1: "1 Main Street",
      },
      ...parse,
    }),
  );
  type Payments = paths["/v2/payment"]["get"]["responses"]["200"]["content"]["application/json"];
  const payments = read<Payments>(
    await client.GET("/v2/payment", {
      params: { query: { account_number: input.dda, payment_id: payment.payment_id } },
      ...parse,
    }),
  );

  type Hook = paths["/v2/webhooks/register"]["post"]["responses"]["200"]["content"]["application/json"];
  const hook = read<Hook>(
    await client.POST("/v2/webhooks/register", {
      body: {
        AccountNumber: input.senTo,
        WebHookUrl: "http://127.0.0.1:9/generated-client",
        Description: "flow",
      },
      ...parse,
    }),
  );
  type Hooks = paths["/v2/webhooks/get"]["get"]["responses"]["200"]["content"]["application/json"];
  const hooks = read<Hooks>(
    await client.GET("/v2/webhooks/get", { params: { query: { accountNumber: input.senTo } }, ...parse }),
  );
  type Deleted = paths["/v2/webhooks/delete"]["delete"]["responses"]["200"]["content"]["application/json"];
  const deleted = read<Deleted>(
    await client.DELETE("/v2/webhooks/delete", {
      params: { query: { webHookId: hook.WebHookId } },
      ...parse,
    }),
  );

  // An XML array answer is its root element holding the repeated items.
  const items = (x: unknown, item: string) =>
    many(Array.isArray(x) ? x : (x as Record<string, unknown>)?.[item]);
  return {
    accounts,
    balanceBefore,
    balanceAfter,
    transferReplayedSame: JSON.stringify(first) === JSON.stringify(again),
    historyItems,
    paymentStatus: payment.payment_status,
    paymentsListed: items(payments, "Payment").length,
    webhookId: hook.WebHookId,
    webhooksListed: items(hooks, "WebHook").length,
    deleted: String(deleted),
  };
}
