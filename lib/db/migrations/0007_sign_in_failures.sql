-- Failed sign-ins to addresses that have no account, counted like a user's own failures so that
-- an unknown address locks after as many attempts as a known one: the answers cannot tell them apart.
CREATE TABLE "sign_in_failures" (
	"email" text PRIMARY KEY NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
