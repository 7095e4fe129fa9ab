-- A release claims a draft for one attempt at a time (claim_token): the same approver in two
-- windows, or two instances, cannot both send it. Approvals are recorded per draft version, one
-- per approver: above the release dual-approval limit a draft needs two before it is sent.
ALTER TABLE payment_drafts ADD COLUMN claim_token uuid;
--> statement-breakpoint
ALTER TABLE payment_drafts ADD COLUMN claimed_at timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "draft_approvals" (
	"draft_id" uuid NOT NULL REFERENCES "payment_drafts" ("id"),
	"version" integer NOT NULL,
	"approver_id" text NOT NULL,
	"approver_email" text NOT NULL,
	"approved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "draft_approvals_pk" PRIMARY KEY ("draft_id", "version", "approver_id")
);
