-- Balance changes and their notifications happen in one statement each, so that a transfer is a
-- single database round trip holding its row locks for the shortest time.

-- One outbox row per channel of every webhook registered on the account (docs/decisions.md, "Outbox").
CREATE OR REPLACE FUNCTION enqueue_balance_change(p_account text, p_prev bigint, p_new bigint, p_now timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_payload jsonb;
BEGIN
  IF p_prev = p_new THEN RETURN; END IF;
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE account_number = p_account) THEN RETURN; END IF;
  v_payload := jsonb_build_object(
    'AccountNumber', p_account,
    'AvailableBalance', CASE WHEN p_new < 0 THEN '-' || lpad((-p_new)::text, 9, '0') ELSE lpad(p_new::text, 9, '0') END,
    'PreviousBalance', CASE WHEN p_prev < 0 THEN '-' || lpad((-p_prev)::text, 9, '0') ELSE lpad(p_prev::text, 9, '0') END);
  INSERT INTO outbox (message_id, webhook_id, customer_id, channel, target, payload, created_at, next_attempt_at)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, w.customer_id, c.channel, c.target, v_payload, p_now, p_now
  FROM webhooks w
  CROSS JOIN LATERAL (VALUES ('http', w.url), ('email', w.emails)) AS c(channel, target)
  WHERE w.account_number = p_account AND c.target <> '';
  PERFORM pg_notify('bank_outbox', '');
END $$;
--> statement-breakpoint

-- A SEN transfer: idempotency record, both rows locked in account-number order (no deadlock
-- between opposite transfers), checks, two balance changes, two ledger entries, notifications.
-- Returns {status: ok|replay|key_conflict|rejected, ...}.
CREATE OR REPLACE FUNCTION sen_transfer(
  p_customer int, p_from text, p_to text, p_cents bigint,
  p_key text, p_hash text, p_now timestamptz, p_date date,
  p_from_desc text[], p_to_desc text[], p_serial1 text, p_serial2 text, p_transfer_id text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r record;
  f record;
  t record;
  v_result jsonb;
  v_existing record;
  v_has_from boolean := false;
  v_has_to boolean := false;
BEGIN
  IF p_key IS NOT NULL THEN
    -- Duplicates of one key queue on this lock; the first one's answer is committed before the
    -- next looks, so it is read and returned rather than acted on again.
    PERFORM pg_advisory_xact_lock(p_customer, hashtext('transfersen:' || p_key));
    SELECT request_hash, response INTO v_existing FROM idempotency_keys
    WHERE customer_id = p_customer AND endpoint = 'transfersen' AND key = p_key;
    IF FOUND THEN
      IF v_existing.request_hash <> p_hash THEN
        RETURN jsonb_build_object('status', 'key_conflict');
      END IF;
      RETURN v_existing.response || jsonb_build_object('replay', true);
    END IF;
  END IF;

  FOR r IN SELECT number, customer_id, type, status, available_cents, current_cents, title_lines, short_name
           FROM accounts WHERE number IN (p_from, p_to) ORDER BY number FOR UPDATE LOOP
    -- A record variable that was never assigned cannot be read: track what was found.
    IF r.number = p_from THEN f := r; v_has_from := true; END IF;
    IF r.number = p_to THEN t := r; v_has_to := true; END IF;
  END LOOP;

  IF NOT v_has_from THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_NOT_FOUND', 'field', 'AccountNumberFrom');
  ELSIF f.customer_id <> p_customer THEN
    -- Another customer's account reads exactly like a missing one.
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_NOT_FOUND', 'field', 'AccountNumberFrom');
  ELSIF NOT v_has_to THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_NOT_FOUND', 'field', 'AccountNumberTo');
  ELSIF p_from = p_to THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'SAME_ACCOUNT', 'field', 'AccountNumberTo');
  ELSIF f.status <> 'A' THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_CLOSED', 'field', 'AccountNumberFrom');
  ELSIF t.status <> 'A' THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_CLOSED', 'field', 'AccountNumberTo');
  ELSIF f.type <> 'SEN' THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_NOT_SEN', 'field', 'AccountNumberFrom');
  ELSIF t.type <> 'SEN' THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_NOT_SEN', 'field', 'AccountNumberTo');
  ELSIF f.available_cents < p_cents THEN
    v_result := jsonb_build_object('status', 'rejected', 'code', 'INSUFFICIENT_FUNDS', 'field', 'Amount');
  ELSE
    UPDATE accounts SET available_cents = available_cents - p_cents, current_cents = current_cents - p_cents
    WHERE number = p_from;
    UPDATE accounts SET available_cents = available_cents + p_cents, current_cents = current_cents + p_cents,
      last_deposit_cents = p_cents, last_deposit_on = p_date
    WHERE number = p_to;
    INSERT INTO ledger_entries (account_number, posted_at, tran_date, amount_cents, dr_cr, tran_code, descriptions,
      available_after_cents, idempotency_key, serial1, serial2, transfer_id, counterparty_account, counterparty_name,
      sender_memo, memo_post)
    VALUES
      (p_from, p_now, p_date, p_cents, 'D', '9084', p_from_desc, f.available_cents - p_cents, coalesce(p_key, ''),
       p_serial1, p_serial2, p_transfer_id, p_to, coalesce(nullif(t.title_lines[1], ''), t.short_name),
       coalesce(p_from_desc[2], ''), false),
      (p_to, p_now, p_date, p_cents, 'C', '9084', p_to_desc, t.available_cents + p_cents, coalesce(p_key, ''),
       p_serial1, p_serial2, p_transfer_id, p_from, coalesce(nullif(f.title_lines[1], ''), f.short_name),
       coalesce(nullif(p_to_desc[2], ''), p_from_desc[2], ''), false);
    PERFORM enqueue_balance_change(p_from, f.available_cents, f.available_cents - p_cents, p_now);
    PERFORM enqueue_balance_change(p_to, t.available_cents, t.available_cents + p_cents, p_now);
    v_result := jsonb_build_object('status', 'ok', 'transferId', p_transfer_id,
      'fromAvailable', f.available_cents - p_cents, 'toAvailable', t.available_cents + p_cents);
  END IF;

  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (customer_id, key, endpoint, request_hash, response, created_at)
    VALUES (p_customer, p_key, 'transfersen', p_hash, v_result, p_now);
  END IF;
  RETURN v_result;
END $$;
--> statement-breakpoint

-- A posted entry that moves both the available and the current balance (deposits, incoming
-- wire credits, settled debits that were not held). Refuses to take the available balance below zero.
CREATE OR REPLACE FUNCTION post_entry(
  p_account text, p_dr_cr char, p_cents bigint, p_code text, p_desc text[],
  p_now timestamptz, p_date date, p_payment_id text, p_idempotency_key text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record;
  v_new bigint;
BEGIN
  SELECT number, status, available_cents INTO a FROM accounts WHERE number = p_account FOR UPDATE;
  IF a.number IS NULL THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'ACCOUNT_NOT_FOUND');
  END IF;
  IF p_dr_cr = 'D' AND a.available_cents < p_cents THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'INSUFFICIENT_FUNDS');
  END IF;
  v_new := CASE WHEN p_dr_cr = 'C' THEN a.available_cents + p_cents ELSE a.available_cents - p_cents END;
  UPDATE accounts SET
    available_cents = v_new,
    current_cents = CASE WHEN p_dr_cr = 'C' THEN current_cents + p_cents ELSE current_cents - p_cents END,
    last_deposit_cents = CASE WHEN p_dr_cr = 'C' THEN p_cents ELSE last_deposit_cents END,
    last_deposit_on = CASE WHEN p_dr_cr = 'C' THEN p_date ELSE last_deposit_on END
  WHERE number = p_account;
  INSERT INTO ledger_entries (account_number, posted_at, tran_date, amount_cents, dr_cr, tran_code, descriptions,
    available_after_cents, idempotency_key, payment_id, memo_post)
  VALUES (p_account, p_now, p_date, p_cents, p_dr_cr, p_code, p_desc, v_new, coalesce(p_idempotency_key, ''),
    coalesce(p_payment_id, ''), false);
  PERFORM enqueue_balance_change(p_account, a.available_cents, v_new, p_now);
  RETURN jsonb_build_object('status', 'ok', 'available', v_new);
END $$;
