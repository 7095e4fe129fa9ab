-- Statement deliveries retried with backoff (next_attempt_at, on the bank's clock) and given up as failed (failed_at, the reason in last_error).
ALTER TABLE "statement_deliveries" DROP CONSTRAINT "statement_deliveries_status_check";--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD CONSTRAINT "statement_deliveries_status_check" CHECK ("statement_deliveries"."status" IN ('claimed', 'retrying', 'delivered', 'failed'));