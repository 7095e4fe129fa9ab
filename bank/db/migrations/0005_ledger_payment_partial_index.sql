DROP INDEX "ledger_payment_idx";--> statement-breakpoint
CREATE INDEX "ledger_payment_idx" ON "ledger_entries" USING btree ("account_number","payment_id") WHERE "ledger_entries"."payment_id" <> '';