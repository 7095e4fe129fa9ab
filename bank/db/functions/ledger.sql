-- The ledger: every change of a balance, its ledger entries and its notifications happen in one
-- statement each, so that a transfer is a single database round trip holding its row locks for the
-- shortest time. These definitions are the current ones: they are applied after the migrations at
-- every open (lib/server/database.ts), and a change to a function is made here; a migration only
-- drops a function whose arguments or result type change.

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
-- The answer kept under an Idempotency-Key, marked as a replay; `p_conflict` when the key came
-- with another request (a different hash); NULL when the key is new.
CREATE OR REPLACE FUNCTION idempotent_answer(
  p_customer int, p_endpoint text, p_key text, p_hash text, p_conflict jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v record;
BEGIN
  SELECT request_hash, response INTO v FROM idempotency_keys
  WHERE customer_id = p_customer AND endpoint = p_endpoint AND key = p_key;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF v.request_hash <> p_hash THEN RETURN p_conflict; END IF;
  RETURN v.response || jsonb_build_object('replay', true);
END $$;

-- One SEN transfer: idempotency record, both rows locked in account-number order (no deadlock
-- between opposite transfers), checks, two balance changes, two ledger entries, notifications.
CREATE OR REPLACE FUNCTION sen_transfer(p jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  p_customer int := (p->>'customer')::int;
  p_from text := p->>'from';
  p_to text := p->>'to';
  p_cents bigint := (p->>'cents')::bigint;
  p_key text := p->>'key';
  p_now timestamptz := (p->>'now')::timestamptz;
  p_date date := (p->>'date')::date;
  p_from_desc text[] := ARRAY(SELECT jsonb_array_elements_text(p->'fromDesc'));
  p_to_desc text[] := ARRAY(SELECT jsonb_array_elements_text(p->'toDesc'));
  p_id text := p->>'id';
  r record;
  f record;
  t record;
  v_code sen_transfer_code;
  v_result jsonb;
  v_has_from boolean := false;
  v_has_to boolean := false;
BEGIN
  IF p_key IS NOT NULL THEN
    -- Duplicates of one key queue on this lock; the first one's answer is committed before the
    -- next looks, so it is read and returned rather than acted on again.
    PERFORM pg_advisory_xact_lock(p_customer, hashtext('transfersen:' || p_key));
    v_result := idempotent_answer(p_customer, 'transfersen', p_key, p->>'hash',
      jsonb_build_object('code', 'key_conflict'::sen_transfer_code));
    IF v_result IS NOT NULL THEN RETURN v_result; END IF;
  END IF;

  FOR r IN SELECT number, customer_id, type, status, available_cents, title_lines, short_name
           FROM accounts WHERE number IN (p_from, p_to) ORDER BY number FOR UPDATE LOOP
    -- A record variable that was never assigned cannot be read: track what was found.
    IF r.number = p_from THEN f := r; v_has_from := true; END IF;
    IF r.number = p_to THEN t := r; v_has_to := true; END IF;
  END LOOP;

  -- Checked in this order; the first that fails is the answer. Another customer's account reads
  -- exactly like a missing one.
  IF NOT v_has_from THEN v_code := 'from_not_found';
  ELSIF f.customer_id <> p_customer THEN v_code := 'from_not_found';
  ELSIF NOT v_has_to THEN v_code := 'to_not_found';
  ELSIF p_from = p_to THEN v_code := 'same_account';
  ELSIF f.status <> 'A' THEN v_code := 'from_closed';
  ELSIF t.status <> 'A' THEN v_code := 'to_closed';
  ELSIF f.type <> 'SEN' THEN v_code := 'from_not_sen';
  ELSIF t.type <> 'SEN' THEN v_code := 'to_not_sen';
  ELSIF f.available_cents < p_cents THEN v_code := 'insufficient_funds';
  ELSE v_code := 'ok';
  END IF;

  IF v_code = 'ok' THEN
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
       p->>'serial1', p->>'serial2', p_id, p_to, coalesce(nullif(t.title_lines[1], ''), t.short_name),
       coalesce(p_from_desc[2], ''), false),
      (p_to, p_now, p_date, p_cents, 'C', '9084', p_to_desc, t.available_cents + p_cents, coalesce(p_key, ''),
       p->>'serial1', p->>'serial2', p_id, p_from, coalesce(nullif(f.title_lines[1], ''), f.short_name),
       coalesce(nullif(p_to_desc[2], ''), p_from_desc[2], ''), false);
    PERFORM enqueue_balance_change(p_from, f.available_cents, f.available_cents - p_cents, p_now);
    PERFORM enqueue_balance_change(p_to, t.available_cents, t.available_cents + p_cents, p_now);
    v_result := jsonb_build_object('code', v_code, 'transferId', p_id);
  ELSE
    v_result := jsonb_build_object('code', v_code);
  END IF;

  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (customer_id, key, endpoint, request_hash, response, created_at)
    VALUES (p_customer, p_key, 'transfersen', p->>'hash', v_result, p_now);
  END IF;
  RETURN v_result;
END $$;

-- Several SEN transfers in one transaction (group commit): one round trip and one commit for the
-- lot, each transfer still decided by sen_transfer with its own answer. Every lock the batch will
-- need is taken first, in the global order sen_transfer itself follows (idempotency-key advisory
-- locks sorted, then account rows sorted by number), so batches running side by side, or beside
-- single transfers, cannot deadlock. Input: a JSON array of transfer records; output: the array
-- of sen_transfer answers, in input order. Accounts are locked by `number = ANY (ARRAY(…))`, one
-- index look-up each (an IN over a subquery can be planned as a scan of every account).
CREATE OR REPLACE FUNCTION sen_transfer_batch(p_items jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  it jsonb;
  h record;
  v_out jsonb := '[]'::jsonb;
BEGIN
  FOR h IN SELECT DISTINCT (e->>'customer')::int AS customer, hashtext('transfersen:' || (e->>'key')) AS k
           FROM jsonb_array_elements(p_items) e WHERE e->>'key' IS NOT NULL ORDER BY 1, 2 LOOP
    PERFORM pg_advisory_xact_lock(h.customer, h.k);
  END LOOP;
  PERFORM 1 FROM accounts WHERE number = ANY (ARRAY(
      SELECT e->>'from' FROM jsonb_array_elements(p_items) e
      UNION SELECT e->>'to' FROM jsonb_array_elements(p_items) e))
    ORDER BY number FOR UPDATE;
  FOR it IN SELECT e FROM jsonb_array_elements(p_items) e LOOP
    v_out := v_out || jsonb_build_array(sen_transfer(it));
  END LOOP;
  RETURN v_out;
END $$;

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
