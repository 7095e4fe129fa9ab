-- Wire payments: an outgoing wire's hold and the payment record kept rendered. Current definitions,
-- applied after the migrations at every open (see ledger.sql).

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
BEGIN
  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (customer_id, key, endpoint, request_hash, response, created_at)
    VALUES (p_customer, p_key, 'payment', p_hash, '{}'::jsonb, p_now)
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_inserted = ROW_COUNT;
    IF v_inserted = 0 THEN
      RETURN idempotent_answer(p_customer, 'payment', p_key, p_hash, jsonb_build_object('status', 'key_conflict'));
    END IF;
  END IF;

  -- A reserved wire moves on from Pre-Approval once: a second application of its log entry
  -- (whatever the cause) answers the payment as it stands and holds nothing again. The payment is
  -- locked before the account, in the order settlement locks them.
  IF p_reserved THEN
    SELECT jsonb_build_object('status', 'ok', 'payment_id', id, 'payment_status', status,
      'payment_timestamp', status_timestamp) INTO v_result
    FROM payments WHERE id = p_id AND customer_id = p_customer FOR UPDATE;
    IF v_result IS NOT NULL AND v_result->>'payment_status' <> 'Pre-Approval' THEN
      RETURN v_result || jsonb_build_object('replay', true);
    END IF;
    v_result := NULL;
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

-- The GET /v2/payment record of a payment, rendered on every insert and update so that listing
-- 1,000 records is one string concatenation. The base object names every record field
-- (lib/bank-api/payments.ts PAYMENT_RECORD_FIELDS), so none is ever missing.
CREATE OR REPLACE FUNCTION render_payment_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.record := ('{"payment_status":"", "payment_id":"", "payment_date":"", "fedwire_type":"", "fedwire_sub_type":"", "source_indicator":"", "direction":"", "time_stamp":"", "swift_uetr":"", "reference_for_beneficiary":"", "senders_reference":"", "originator_to_beneficiary_info_line":"", "bank_to_bank_info_line1":"", "imad":"", "omad":"", "sending_bank_type":"", "sending_bank_id":"", "sending_bank_name":"", "sending_bank_address":"", "receiving_bank_type":"", "receiving_bank_id":"", "receiving_bank_name":"", "receiving_bank_address":"", "originator_type":"", "originator_id":"", "originator_name":"", "originator_address":"", "originating_bank_type":"", "originating_bank_id":"", "originating_bank_swift_bic":"", "originating_bank_name":"", "originating_bank_address":"", "instructing_bank_type":"", "instructing_bank_id":"", "instructing_bank_swift_bic":"", "instructing_bank_name":"", "instructing_bank_address":"", "beneficiary_type":"", "beneficiary_id":"", "beneficiary_name":"", "beneficiary_address":"", "beneficiary_country_code":"", "beneficiary_bank_type":"", "beneficiary_bank_id":"", "beneficiary_bank_swift_bic":"", "beneficiary_bank_name":"", "beneficiary_bank_address":"", "beneficiary_bank_country_code":"", "intermediary_bank_type":"", "intermediary_bank_id":"", "intermediary_bank_swift_bic":"", "intermediary_bank_name":"", "intermediary_bank_address":"", "entry_date":"", "completion_date":"", "cancel_date":"", "debit_account_type":"", "debit_account_id":"", "credit_account_id":""}'::jsonb
    || (NEW.details - 'originator_to_beneficiary_info')
    || jsonb_build_object(
      'payment_status', NEW.status, 'payment_id', NEW.id, 'payment_date', NEW.payment_date::text,
      'amount', (NEW.amount_cents / 100.0)::float8, 'fedwire_type', NEW.fedwire_type,
      'fedwire_sub_type', NEW.fedwire_sub_type,
      'source_indicator', CASE WHEN NEW.direction = 'Incoming' THEN 'I' ELSE 'O' END,
      'direction', NEW.direction, 'time_stamp', NEW.status_timestamp,
      'senders_reference', coalesce(NEW.details->>'senders_reference', NEW.id),
      'imad', coalesce(NEW.imad, ''), 'omad', coalesce(NEW.omad, ''),
      'entry_date', coalesce(to_char(NEW.entry_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ''),
      'completion_date', coalesce(to_char(NEW.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ''),
      'cancel_date', coalesce(to_char(NEW.canceled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')))::text;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER payments_render_record BEFORE INSERT OR UPDATE ON payments
FOR EACH ROW EXECUTE FUNCTION render_payment_record();
