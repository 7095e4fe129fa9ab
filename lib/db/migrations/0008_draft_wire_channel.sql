-- A released wire records which path took it (POST /v2/payment, or the backup log during a
-- wire-system outage) before it is sent; "queued" is a wire in the backup log awaiting replay.
ALTER TABLE payment_drafts DROP CONSTRAINT payment_drafts_status_check;
--> statement-breakpoint
ALTER TABLE payment_drafts ADD CONSTRAINT payment_drafts_status_check
  CHECK (status IN ('pending', 'releasing', 'queued', 'released', 'rejected', 'failed'));
--> statement-breakpoint
ALTER TABLE payment_drafts ADD COLUMN channel text CHECK (channel IN ('primary', 'backup'));
