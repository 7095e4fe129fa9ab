-- A password an administrator set on a user's behalf (a reset) must be replaced at the next
-- sign-in before anything else is shown.
ALTER TABLE "users" ADD COLUMN "password_must_change" boolean DEFAULT false NOT NULL;
