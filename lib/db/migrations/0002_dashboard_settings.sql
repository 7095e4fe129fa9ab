-- Settings an administrator changes at run time (dual-control thresholds and the like), one row
-- per setting; a setting with no row has its default (lib/settings.ts).
CREATE TABLE "dashboard_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
