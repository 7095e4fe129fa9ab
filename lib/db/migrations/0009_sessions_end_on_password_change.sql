-- A changed or reset password ends the user's sessions signed in before it: sessions_from is
-- when; kept_session_signed_in_at is the sign-in time of the one session that changed its own
-- password, which goes on.
ALTER TABLE "users" ADD COLUMN "sessions_from" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "kept_session_signed_in_at" bigint;
