-- Payee control: a new saved beneficiary, and a change to a saved beneficiary's account or bank
-- details, wait here until a second person approves them; until then the beneficiary cannot fill
-- a wire. Rows stay after a beneficiary is deleted: a wire's release still shows what changed.
CREATE TABLE beneficiary_changes (
  id uuid PRIMARY KEY,
  beneficiary_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('create', 'change')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'withdrawn')),
  label text NOT NULL,
  before jsonb,
  after jsonb NOT NULL,
  changed_by text NOT NULL,
  changed_by_email text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  decided_by text,
  decided_by_email text,
  decided_at timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX beneficiary_changes_one_pending_idx ON beneficiary_changes (beneficiary_id)
  WHERE status = 'pending';
--> statement-breakpoint
CREATE INDEX beneficiary_changes_decided_idx ON beneficiary_changes (beneficiary_id, decided_at);
--> statement-breakpoint
ALTER TABLE payment_drafts ADD COLUMN beneficiary_id uuid;
