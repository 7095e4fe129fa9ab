ALTER TABLE "payments" ADD COLUMN "record" text DEFAULT '{}' NOT NULL;

-- The record is rendered by the trigger payments_render_record, defined in
-- bank/db/functions/payments.sql.
