-- Webhooks after an outage. `leased` marks a row claimed by a dispatcher (its request may be on
-- the wire), so that a receiver's recovery can make its waiting rows due at once without
-- touching the ones being sent; an attempt is written when its row is claimed, before the
-- request goes out, so its `ok` is null until the answer is recorded; fresh rows (never tried)
-- are claimed first, from their own index.
ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "leased" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ALTER COLUMN "ok" DROP NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "outbox_fresh_idx" ON "outbox" ("created_at") WHERE "state" = 'pending' AND "attempts" = 0;
