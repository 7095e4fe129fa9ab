-- 0010 (draft release claims) again, for the databases that skipped it. It was added to the
-- journal after 0011-0013 with an earlier time, and Drizzle's migrator applies only migrations
-- newer than the last one a database recorded: a database migrated to 0013 before 0010 landed
-- never got it. Written to change nothing where 0010 did run.
ALTER TABLE payment_drafts ADD COLUMN IF NOT EXISTS claim_token uuid;
--> statement-breakpoint
ALTER TABLE payment_drafts ADD COLUMN IF NOT EXISTS claimed_at timestamp with time zone;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "draft_approvals" (
	"draft_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"approver_id" text NOT NULL,
	"approver_email" text NOT NULL,
	"approved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "draft_approvals_pk" PRIMARY KEY ("draft_id", "version", "approver_id"),
	CONSTRAINT "draft_approvals_draft_id_fkey" FOREIGN KEY ("draft_id") REFERENCES "payment_drafts" ("id")
);
