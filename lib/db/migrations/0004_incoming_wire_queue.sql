-- Decisions on incoming wires, recorded before the dashboard sends them: one live decision per
-- payment (the partial unique index), so two approvers acting at once cannot both send one.
CREATE TABLE "incoming_wire_decisions" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"account_number" text NOT NULL,
	"action" text NOT NULL,
	"payment_timestamp" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"originator_name" text DEFAULT '' NOT NULL,
	"approvers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"decided_by_id" text NOT NULL,
	"decided_by_email" text NOT NULL,
	"state" text NOT NULL,
	"channel" text DEFAULT 'primary' NOT NULL,
	"bank_status" text,
	"bank_timestamp" text,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "incoming_wire_decisions_one_live" ON "incoming_wire_decisions" ("payment_id")
	WHERE "state" NOT IN ('rejected', 'failed');
--> statement-breakpoint
CREATE INDEX "incoming_wire_decisions_created_at_idx" ON "incoming_wire_decisions" ("created_at");
--> statement-breakpoint
CREATE INDEX "incoming_wire_decisions_open_idx" ON "incoming_wire_decisions" ("state")
	WHERE "state" IN ('sending', 'queued', 'unconfirmed');
--> statement-breakpoint
-- First approvals of wires above the dual-approval limit: one vote per approver and payment.
CREATE TABLE "incoming_wire_votes" (
	"payment_id" text NOT NULL,
	"user_id" text NOT NULL,
	"user_email" text NOT NULL,
	"account_number" text NOT NULL,
	"action" text NOT NULL,
	"payment_timestamp" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incoming_wire_votes_pk" PRIMARY KEY ("payment_id", "user_id")
);
