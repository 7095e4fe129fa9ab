CREATE TABLE "accounts" (
	"number" text PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"type" text NOT NULL,
	"status" char(1) DEFAULT 'A' NOT NULL,
	"title_lines" text[] DEFAULT '{}'::text[] NOT NULL,
	"short_name" text NOT NULL,
	"opened_on" date NOT NULL,
	"available_cents" bigint DEFAULT 0 NOT NULL,
	"current_cents" bigint DEFAULT 0 NOT NULL,
	"holds_cents" bigint DEFAULT 0 NOT NULL,
	"last_deposit_cents" bigint DEFAULT 0 NOT NULL,
	"last_deposit_on" date,
	"expected_balance" integer,
	"expected_incoming_month" integer,
	"expected_outgoing_month" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_available_not_negative" CHECK ("accounts"."available_cents" >= 0),
	CONSTRAINT "accounts_holds_not_negative" CHECK ("accounts"."holds_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bank_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"short_name" text NOT NULL,
	"title_lines" text[] DEFAULT '{}'::text[] NOT NULL,
	"key_hash" text NOT NULL,
	"webhook_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"message_id" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"ok" boolean NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"customer_id" integer NOT NULL,
	"key" text NOT NULL,
	"endpoint" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_customer_id_endpoint_key_pk" PRIMARY KEY("customer_id","endpoint","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"tran_date" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"dr_cr" char(1) NOT NULL,
	"tran_code" text NOT NULL,
	"descriptions" text[] NOT NULL,
	"available_after_cents" bigint NOT NULL,
	"idempotency_key" text DEFAULT '' NOT NULL,
	"serial1" text DEFAULT '' NOT NULL,
	"serial2" text DEFAULT '' NOT NULL,
	"payment_id" text DEFAULT '' NOT NULL,
	"transfer_id" text,
	"counterparty_account" text,
	"counterparty_name" text,
	"sender_memo" text,
	"memo_post" boolean DEFAULT true NOT NULL,
	CONSTRAINT "ledger_amount_positive" CHECK ("ledger_entries"."amount_cents" > 0),
	CONSTRAINT "ledger_dr_cr" CHECK ("ledger_entries"."dr_cr" in ('D','C'))
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"customer_id" integer NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "outbox_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "payment_backup_log" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"request" jsonb NOT NULL,
	"logged_at" timestamp with time zone NOT NULL,
	"replayed_at" timestamp with time zone,
	"result" jsonb
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"account_number" text NOT NULL,
	"direction" text NOT NULL,
	"status" text NOT NULL,
	"status_timestamp" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"fedwire_type" text DEFAULT '10' NOT NULL,
	"fedwire_sub_type" text DEFAULT '00' NOT NULL,
	"payment_date" date NOT NULL,
	"entry_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"imad" text,
	"omad" text,
	"return_of" text,
	"idempotency_key" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_mail" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"message_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_issues" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"last_issued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"account_number" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"emails" text DEFAULT '' NOT NULL,
	"sms" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wire_summaries" (
	"transaction_number" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"account_number" text NOT NULL,
	"summary_date" date NOT NULL,
	"source_indicator" char(1) NOT NULL,
	"unique_id" text NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_number_accounts_number_fk" FOREIGN KEY ("account_number") REFERENCES "public"."accounts"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_number_accounts_number_fk" FOREIGN KEY ("account_number") REFERENCES "public"."accounts"("number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_issues" ADD CONSTRAINT "token_issues_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wire_summaries" ADD CONSTRAINT "wire_summaries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_customer_idx" ON "accounts" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "delivery_attempts_outbox_idx" ON "delivery_attempts" USING btree ("outbox_id");--> statement-breakpoint
CREATE INDEX "idempotency_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_account_time_idx" ON "ledger_entries" USING btree ("account_number","tran_date","id");--> statement-breakpoint
CREATE INDEX "ledger_payment_idx" ON "ledger_entries" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "payments_account_date_idx" ON "payments" USING btree ("account_number","payment_date","id");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status");--> statement-breakpoint
CREATE INDEX "webhooks_account_idx" ON "webhooks" USING btree ("account_number");--> statement-breakpoint
CREATE INDEX "webhooks_customer_idx" ON "webhooks" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "wire_summaries_account_date_idx" ON "wire_summaries" USING btree ("account_number","summary_date","source_indicator");--> statement-breakpoint
CREATE INDEX "wire_summaries_unique_idx" ON "wire_summaries" USING btree ("unique_id");