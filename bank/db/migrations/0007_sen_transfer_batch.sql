-- Several SEN transfers in one transaction (group commit): one round trip and one commit for the
-- lot, each transfer still decided by sen_transfer with its own answer. Every lock the batch will
-- need is taken first, in the global order sen_transfer itself follows (idempotency-key advisory
-- locks sorted, then account rows sorted by number), so batches running side by side, or beside
-- single transfers, cannot deadlock. Input: a JSON array of
-- {customer, from, to, cents, key, hash, now, date, fromDesc[], toDesc[], serial1, serial2, id};
-- output: the array of sen_transfer answers, in input order. Accounts are locked by
-- `number = ANY (ARRAY(…))`, one index look-up each (an IN over a subquery can be planned as a
-- scan of every account).
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
    v_out := v_out || jsonb_build_array(sen_transfer(
      (it->>'customer')::int, it->>'from', it->>'to', (it->>'cents')::bigint,
      it->>'key', it->>'hash', (it->>'now')::timestamptz, (it->>'date')::date,
      ARRAY(SELECT jsonb_array_elements_text(it->'fromDesc')),
      ARRAY(SELECT jsonb_array_elements_text(it->'toDesc')),
      it->>'serial1', it->>'serial2', it->>'id'));
  END LOOP;
  RETURN v_out;
END $$;
