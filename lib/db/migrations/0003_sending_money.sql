-- Sending money: drafts under dual control (wires, and SEN transfers above the release threshold)
-- and saved wire beneficiaries.
CREATE TABLE payment_drafts (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('wire', 'sen')),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'releasing', 'released', 'rejected', 'failed')),
  version integer NOT NULL DEFAULT 1,
  from_account text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  counterparty text NOT NULL,
  request jsonb NOT NULL,
  prepared_by text NOT NULL,
  prepared_by_email text NOT NULL,
  prepared_at timestamptz NOT NULL DEFAULT now(),
  decided_by text,
  decided_by_email text,
  decided_at timestamptz,
  reject_reason text,
  payment_id text,
  bank_answer jsonb
);
--> statement-breakpoint
CREATE INDEX payment_drafts_status_idx ON payment_drafts (status, prepared_at);
--> statement-breakpoint
CREATE TABLE beneficiaries (
  id uuid PRIMARY KEY,
  label text NOT NULL,
  fields jsonb NOT NULL,
  created_by text NOT NULL,
  created_by_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX beneficiaries_label_idx ON beneficiaries (lower(label));
