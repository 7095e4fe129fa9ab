-- Actions audited as done once per target (a SEN transfer per key): the first `ok` entry claims
-- the row, and a later answer to the same request is audited as a repeat.
CREATE TABLE "audit_once" (
	"action" text NOT NULL,
	"target" text NOT NULL,
	CONSTRAINT "audit_once_action_target_pk" PRIMARY KEY("action","target")
);
