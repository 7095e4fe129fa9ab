-- Sweeps: a band kept on an account by moves from and to another, approved by version, each run slot moved once.
-- And the saved payee a wire series was filled from, whose facts are judged at each send.
CREATE TABLE "sweep_approvals" (
	"sweep_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"approver_id" text NOT NULL,
	"approver_email" text NOT NULL,
	"approved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sweep_approvals_pk" PRIMARY KEY("sweep_id","version","approver_id")
);
--> statement-breakpoint
CREATE TABLE "sweep_moves" (
	"sweep_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"day" text NOT NULL,
	"key" uuid NOT NULL,
	"status" text NOT NULL,
	"direction" text,
	"from_account" text,
	"to_account" text,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"available_cents" bigint,
	"funding_available_cents" bigint,
	"request" jsonb,
	"claim_token" uuid,
	"claimed_at" timestamp with time zone,
	"bank_answer" jsonb,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sweep_moves_pk" PRIMARY KEY("sweep_id","day","slot"),
	CONSTRAINT "sweep_moves_status_check" CHECK (status = ANY (ARRAY['sending'::text, 'sent'::text, 'failed'::text, 'inside'::text, 'short'::text])),
	CONSTRAINT "sweep_moves_direction_check" CHECK (direction IS NULL OR direction = ANY (ARRAY['fund'::text, 'sweep'::text]))
);
--> statement-breakpoint
CREATE TABLE "sweeps" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"account" text NOT NULL,
	"funding_account" text NOT NULL,
	"low_cents" bigint NOT NULL,
	"high_cents" bigint NOT NULL,
	"run_at" text NOT NULL,
	"prepared_by" text NOT NULL,
	"prepared_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sweeps_status_check" CHECK (status = ANY (ARRAY['active'::text, 'paused'::text, 'deleted'::text])),
	CONSTRAINT "sweeps_band_check" CHECK (low_cents >= 0 AND high_cents >= low_cents),
	CONSTRAINT "sweeps_accounts_check" CHECK (account <> funding_account)
);
--> statement-breakpoint
ALTER TABLE "payment_series" ADD COLUMN "beneficiary_id" uuid;--> statement-breakpoint
ALTER TABLE "sweep_approvals" ADD CONSTRAINT "sweep_approvals_sweep_id_fkey" FOREIGN KEY ("sweep_id") REFERENCES "public"."sweeps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sweep_moves" ADD CONSTRAINT "sweep_moves_sweep_id_fkey" FOREIGN KEY ("sweep_id") REFERENCES "public"."sweeps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sweep_moves_key_idx" ON "sweep_moves" USING btree ("key");--> statement-breakpoint
CREATE INDEX "sweep_moves_sending_idx" ON "sweep_moves" USING btree ("claimed_at") WHERE "sweep_moves"."status" = 'sending';