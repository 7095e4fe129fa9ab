-- Wire payments: the simulated Fedwire's sequence numbers and the outgoing-wire hold.

-- Input message sequence numbers (IMSN) and e-wire transaction numbers, unique across instances.
CREATE SEQUENCE IF NOT EXISTS wire_message_seq START 100001;
--> statement-breakpoint

CREATE INDEX IF NOT EXISTS payments_in_progress_idx ON payments (status_timestamp) WHERE status = 'In-Progress';
--> statement-breakpoint

CREATE INDEX IF NOT EXISTS payment_backup_log_pending_idx ON payment_backup_log (seq) WHERE replayed_at IS NULL;

-- initiate_wire is defined in bank/db/functions/payments.sql.
