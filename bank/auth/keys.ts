// Subscription keys: random, shown once, stored only as SHA-256.
import { createHash, randomBytes } from "node:crypto";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Queryable } from "../db/client.ts";
import type { customers } from "../db/schema.ts";

export function newSubscriptionKey(): string {
  return `sk_${randomBytes(24).toString("base64url")}`;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export interface Customer {
  id: number;
  name: string;
  shortName: string;
  titleLines: string[];
  webhookSecret: string;
}

/** Key → customer, cached: customers are never deleted and their key never changes. */
export function createCustomerDirectory(db: Queryable) {
  const cache = new Map<string, Customer>();
  return {
    async byKey(key: string): Promise<Customer | null> {
      const h = hashKey(key);
      const hit = cache.get(h);
      if (hit) return hit;
      const rows = await db.query<
        Pick<SqlRow<typeof customers>, "id" | "name" | "short_name" | "title_lines" | "webhook_secret">
      >("SELECT id, name, short_name, title_lines, webhook_secret FROM customers WHERE key_hash = $1", [h]);
      if (!rows.length) return null;
      const r = rows[0];
      const c: Customer = {
        id: r.id,
        name: r.name,
        shortName: r.short_name,
        titleLines: r.title_lines,
        webhookSecret: r.webhook_secret,
      };
      if (cache.size > 10_000) cache.clear();
      cache.set(h, c);
      return c;
    },
  };
}
export type CustomerDirectory = ReturnType<typeof createCustomerDirectory>;
