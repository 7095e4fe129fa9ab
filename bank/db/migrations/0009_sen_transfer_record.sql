-- A SEN transfer is one JSON record on both paths, and its SQL answers with a result code alone:
-- what a code means to a caller (its wording, field and business code) is decided in
-- lib/bank-api/transfer-outcomes.ts. The record:
-- {customer, from, to, cents, key, hash, now, date, fromDesc[], toDesc[], serial1, serial2, id};
-- the answer: {code, transferId (when ok), replay (when read back from the Idempotency-Key)}.
CREATE TYPE sen_transfer_code AS ENUM (
  'ok', 'key_conflict',
  'from_not_found', 'to_not_found', 'same_account',
  'from_closed', 'to_closed', 'from_not_sen', 'to_not_sen',
  'insufficient_funds');
--> statement-breakpoint

-- Answers kept under an Idempotency-Key are read back as they were stored: restate them as codes.
UPDATE idempotency_keys SET response = CASE
    WHEN response->>'status' = 'ok' THEN jsonb_build_object('code', 'ok', 'transferId', response->>'transferId')
    ELSE jsonb_build_object('code', CASE response->>'code'
      WHEN 'ACCOUNT_NOT_FOUND' THEN CASE response->>'field' WHEN 'AccountNumberFrom' THEN 'from_not_found' ELSE 'to_not_found' END
      WHEN 'SAME_ACCOUNT' THEN 'same_account'
      WHEN 'ACCOUNT_CLOSED' THEN CASE response->>'field' WHEN 'AccountNumberFrom' THEN 'from_closed' ELSE 'to_closed' END
      WHEN 'ACCOUNT_NOT_SEN' THEN CASE response->>'field' WHEN 'AccountNumberFrom' THEN 'from_not_sen' ELSE 'to_not_sen' END
      ELSE 'insufficient_funds' END)
  END
WHERE endpoint = 'transfersen' AND response ? 'status';
--> statement-breakpoint

DROP FUNCTION IF EXISTS sen_transfer(int, text, text, bigint, text, text, timestamptz, date, text[], text[], text, text, text);
--> statement-breakpoint

-- One SEN transfer: idempotency record, both rows locked in account-number order (no deadlock
-- between opposite transfers), checks, two balance changes, two ledger entries, notifications.
CREATE FUNCTION sen_transfer(p jsonb)
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
      IF v_existing.request_hash <> p->>'hash' THEN
        RETURN jsonb_build_object('code', 'key_conflict'::sen_transfer_code);
      END IF;
      RETURN v_existing.response || jsonb_build_object('replay', true);
    END IF;
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
--> statement-breakpoint

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
