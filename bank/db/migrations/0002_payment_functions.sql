-- Wire payments: the simulated Fedwire's sequence numbers and the outgoing-wire hold.

-- Input message sequence numbers (IMSN) and e-wire transaction numbers, unique across instances.
CREATE SEQUENCE IF NOT EXISTS wire_message_seq START 100001;
--> statement-breakpoint

CREATE INDEX IF NOT EXISTS payments_in_progress_idx ON payments (status_timestamp) WHERE status = 'In-Progress';
--> statement-breakpoint

CREATE INDEX IF NOT EXISTS payment_backup_log_pending_idx ON payment_backup_log (seq) WHERE replayed_at IS NULL;
--> statement-breakpoint

-- An outgoing wire: idempotency record, the originator's row locked, ownership and funds
-- checked, the amount held (available drops, current does not, holds rise), the payment row
-- written (or a reserved one moved on) and the balance notification queued, in one statement.
-- Returns {status: ok|key_conflict|rejected, ...} with the payment response to give the caller.
CREATE OR REPLACE FUNCTION initiate_wire(
  p_customer int, p_account text, p_cents bigint, p_key text, p_hash text,
  p_now timestamptz, p_ts text, p_date date, p_id text, p_details jsonb, p_direction text,
  p_reserved boolean)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record;
  v_result jsonb;
  v_inserted int;
  v_existing record;
BEGIN
  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (customer_id, key, endpoint, request_hash, response, created_at)
    VALUES (p_customer, p_key, 'payment', p_hash, '{}'::jsonb, p_now)
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_inserted = ROW_COUNT;
    IF v_inserted = 0 THEN
      SELECT request_hash, response INTO v_existing FROM idempotency_keys
      WHERE customer_id = p_customer AND endpoint = 'payment' AND key = p_key;
      IF v_existing.request_hash <> p_hash THEN
        RETURN jsonb_build_object('status', 'key_conflict');
      END IF;
      RETURN v_existing.response || jsonb_build_object('replay', true);
    END IF;
  END IF;

  SELECT number, customer_id, type, status, available_cents, title_lines, short_name INTO a
  FROM accounts WHERE number = p_account FOR UPDATE;

  IF a.number IS NULL OR a.customer_id <> p_customer THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_NOT_FOUND', 'field', 'originator_account_number');
  ELSIF a.status <> 'A' THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_CLOSED', 'field', 'originator_account_number');
  ELSIF a.available_cents < p_cents THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'INSUFFICIENT_FUNDS', 'field', 'amount');
  ELSE
    UPDATE accounts SET available_cents = available_cents - p_cents, holds_cents = holds_cents + p_cents
    WHERE number = p_account;
    IF p_reserved THEN
      UPDATE payments SET status = 'In-Progress', status_timestamp = p_ts,
        details = details || jsonb_build_object(
          'originator_name', coalesce(nullif(a.title_lines[1], ''), a.short_name),
          'debit_account_type', a.type)
      WHERE id = p_id AND status = 'Pre-Approval';
    ELSE
      INSERT INTO payments (id, customer_id, account_number, direction, status, status_timestamp, amount_cents,
        fedwire_type, fedwire_sub_type, payment_date, entry_at, idempotency_key, details)
      VALUES (p_id, p_customer, p_account, p_direction, 'In-Progress', p_ts, p_cents, '10', '00', p_date, p_now, p_key,
        p_details || jsonb_build_object(
          'originator_name', coalesce(nullif(a.title_lines[1], ''), a.short_name),
          'debit_account_type', a.type));
    END IF;
    PERFORM enqueue_balance_change(p_account, a.available_cents, a.available_cents - p_cents, p_now);
    v_result := jsonb_build_object('status', 'ok', 'payment_id', p_id, 'payment_status', 'In-Progress',
      'payment_timestamp', p_ts);
  END IF;

  -- A reserved wire that cannot be sent any more is canceled, never left waiting.
  IF p_reserved AND v_result->>'status' = 'rejected' THEN
    UPDATE payments SET status = 'Canceled', status_timestamp = p_ts, canceled_at = p_now
    WHERE id = p_id AND status = 'Pre-Approval';
    v_result := v_result || jsonb_build_object('payment_id', p_id, 'payment_status', 'Canceled',
      'payment_timestamp', p_ts);
  END IF;

  IF p_key IS NOT NULL THEN
    UPDATE idempotency_keys SET response = v_result
    WHERE customer_id = p_customer AND endpoint = 'payment' AND key = p_key;
  END IF;
  RETURN v_result;
END $$;
