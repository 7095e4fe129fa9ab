-- Scheduled and recurring payments: series, their approvals by version, and each occurrence once.
CREATE TABLE "payment_series" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"from_account" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"counterparty" text NOT NULL,
	"request" jsonb NOT NULL,
	"rule" text NOT NULL,
	"roll" text NOT NULL,
	"next_day" text,
	"prepared_by" text NOT NULL,
	"prepared_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_series_kind_check" CHECK (kind = ANY (ARRAY['wire'::text, 'sen'::text])),
	CONSTRAINT "payment_series_status_check" CHECK (status = ANY (ARRAY['active'::text, 'paused'::text, 'cancelled'::text, 'ended'::text])),
	CONSTRAINT "payment_series_roll_check" CHECK (roll = ANY (ARRAY['following'::text, 'preceding'::text])),
	CONSTRAINT "payment_series_amount_cents_check" CHECK (amount_cents > 0)
);
--> statement-breakpoint
CREATE TABLE "series_approvals" (
	"series_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"approver_id" text NOT NULL,
	"approver_email" text NOT NULL,
	"approved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_approvals_pk" PRIMARY KEY("series_id","version","approver_id")
);
--> statement-breakpoint
CREATE TABLE "series_occurrences" (
	"series_id" uuid NOT NULL,
	"nominal_day" text NOT NULL,
	"day" text NOT NULL,
	"key" uuid NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"version" integer,
	"amount_cents" bigint,
	"request" jsonb,
	"claim_token" uuid,
	"claimed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"channel" text,
	"payment_id" text,
	"bank_answer" jsonb,
	"reason" text,
	"actor_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_occurrences_pk" PRIMARY KEY("series_id","nominal_day"),
	CONSTRAINT "series_occurrences_status_check" CHECK (status = ANY (ARRAY['due'::text, 'sending'::text, 'sent'::text, 'queued'::text, 'failed'::text, 'skipped'::text]))
);
--> statement-breakpoint
ALTER TABLE "series_approvals" ADD CONSTRAINT "series_approvals_series_id_fkey" FOREIGN KEY ("series_id") REFERENCES "public"."payment_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_occurrences" ADD CONSTRAINT "series_occurrences_series_id_fkey" FOREIGN KEY ("series_id") REFERENCES "public"."payment_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_series_next_day_idx" ON "payment_series" USING btree ("next_day") WHERE "payment_series"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "series_occurrences_key_idx" ON "series_occurrences" USING btree ("key");--> statement-breakpoint
CREATE INDEX "series_occurrences_open_idx" ON "series_occurrences" USING btree ("day") WHERE "series_occurrences"."status" IN ('due', 'sending');--> statement-breakpoint
CREATE INDEX "series_occurrences_queued_idx" ON "series_occurrences" USING btree ("updated_at") WHERE "series_occurrences"."status" = 'queued';