-- Changes that weaken a control (a raised limit, a granted role, a re-enabled user, a reset of a
-- privileged user's password), asked for by one administrator and applied only when a second
-- approves (lib/admin/changes.ts). At most one waits per target.
CREATE TABLE "admin_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"target_label" text NOT NULL,
	"before" jsonb,
	"after" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by_id" text NOT NULL,
	"requested_by_email" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_by_id" text,
	"decided_by_email" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "admin_changes_one_pending" ON "admin_changes" ("kind", "target") WHERE "status" = 'pending';
