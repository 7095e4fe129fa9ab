-- Every balance notification the receiver accepted, once per webhook-id: the replay source for
-- browsers resuming with Last-Event-ID and the feed of the notifications panel.
CREATE TABLE live_events (
  seq bigserial PRIMARY KEY,
  webhook_id text NOT NULL UNIQUE,
  account_number text NOT NULL,
  available_cents bigint NOT NULL,
  previous_cents bigint NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX live_events_account_idx ON live_events (account_number, seq);
--> statement-breakpoint
CREATE INDEX live_events_received_idx ON live_events (received_at);
--> statement-breakpoint
-- One balance-alert rule per account; the armed flags are the crossing state (fired once, re-armed
-- when the balance comes back), kept here so every instance sees the same state.
CREATE TABLE alert_rules (
  account_number text PRIMARY KEY,
  below_cents bigint,
  above_cents bigint,
  notify_users boolean NOT NULL DEFAULT true,
  emails text NOT NULL DEFAULT '',
  bank_webhook_id text,
  below_armed boolean NOT NULL DEFAULT true,
  above_armed boolean NOT NULL DEFAULT true,
  last_event_seq bigint NOT NULL DEFAULT 0,
  updated_by text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT alert_rules_threshold CHECK (below_cents IS NOT NULL OR above_cents IS NOT NULL),
  CONSTRAINT alert_rules_positive CHECK (COALESCE(below_cents, 1) > 0 AND COALESCE(above_cents, 1) > 0)
);
--> statement-breakpoint
-- One row per crossing: the unique key makes a second evaluation of one notification a no-op.
CREATE TABLE alerts (
  id bigserial PRIMARY KEY,
  event_seq bigint NOT NULL REFERENCES live_events (seq) ON DELETE CASCADE,
  account_number text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('below', 'above')),
  threshold_cents bigint NOT NULL,
  available_cents bigint NOT NULL,
  previous_cents bigint NOT NULL,
  notify_users boolean NOT NULL,
  emails text NOT NULL DEFAULT '',
  emailed_at timestamptz,
  at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_seq, kind)
);
--> statement-breakpoint
CREATE INDEX alerts_account_idx ON alerts (account_number, id);
--> statement-breakpoint
-- Read marks of the notifications panel, per user: everything up to read_through_seq, plus single items.
CREATE TABLE notification_marks (
  user_id text PRIMARY KEY,
  read_through_seq bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
CREATE TABLE notification_reads (
  user_id text NOT NULL,
  event_seq bigint NOT NULL REFERENCES live_events (seq) ON DELETE CASCADE,
  PRIMARY KEY (user_id, event_seq)
);
