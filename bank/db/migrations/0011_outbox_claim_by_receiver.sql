-- Webhook claims by receiver. The claim used to walk the outbox in due order, computing each row's
-- receiver from its URL and passing over the rows of receivers that were failing or at their limit:
-- after an outage that was the whole backlog, at every claim. Now the receiver is a column, the
-- never-tried rows and the retries have an index each, ordered by receiver, and one claim reads only
-- the first few due rows of each receiver that has a free slot (the functions are in
-- bank/db/functions/outbox.sql).
ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "host" text NOT NULL GENERATED ALWAYS AS (
  CASE WHEN "channel" = 'http'
    THEN coalesce(lower(substring("target" from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]+)')), '')
    ELSE '' END) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "outbox_due_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "outbox_fresh_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "outbox_new_idx" ON "outbox" ("host", "created_at") WHERE "state" = 'pending' AND "attempts" = 0;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "outbox_retry_idx" ON "outbox" ("host", "next_attempt_at") WHERE "state" = 'pending' AND "attempts" > 0;
