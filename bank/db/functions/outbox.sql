-- Webhook and e-mail deliveries (the outbox), claimed by receiver: the receiver is a column, the
-- never-tried rows and the retries have an index each, ordered by receiver, and one claim reads only
-- the first few due rows of each receiver that has a free slot. The claim and the write of the
-- attempts' results are functions, so that their plans are made once per connection (the embedded
-- database prepares nothing). They keep one generic plan: the arguments never change the best
-- plan (a few index probes per receiver), and planning costs many times the execution.
-- Current definitions, applied after the migrations at every open (see ledger.sql).

-- Receivers with a pending row, '' standing for e-mail: a skip scan of the two indexes, one probe
-- per receiver however long its backlog.
CREATE OR REPLACE FUNCTION outbox_receivers()
RETURNS TABLE (host text) LANGUAGE sql STABLE AS $$
  WITH RECURSIVE r(h) AS (
    SELECT least(
      (SELECT o.host FROM outbox o WHERE o.state = 'pending' AND o.attempts = 0 ORDER BY o.host LIMIT 1),
      (SELECT o.host FROM outbox o WHERE o.state = 'pending' AND o.attempts > 0 ORDER BY o.host LIMIT 1))
    UNION ALL
    SELECT least(
      (SELECT o.host FROM outbox o WHERE o.state = 'pending' AND o.attempts = 0 AND o.host > r.h ORDER BY o.host LIMIT 1),
      (SELECT o.host FROM outbox o WHERE o.state = 'pending' AND o.attempts > 0 AND o.host > r.h ORDER BY o.host LIMIT 1))
    FROM r WHERE r.h IS NOT NULL)
  SELECT h FROM r WHERE h IS NOT NULL
$$;

-- Claims up to p_limit due rows, each receiver no more than its free slots (p_busy/p_free for
-- receivers with deliveries in flight, p_host_limit for the others; receivers in p_blocked are at
-- their limit; e-mail has no limit of its own). Per receiver, fresh rows first (never tried,
-- written since p_fresh_since), oldest first; then the longest-waiting of the older never-tried
-- rows and the due retries. A failing receiver (p_failing) gets retries only: its other rows wait
-- for a probe's success. Each claimed row is leased until p_lease_until and its attempt is written
-- in the same statement, before any request goes out.
CREATE OR REPLACE FUNCTION claim_outbox(
  p_now timestamptz, p_limit int, p_lease_until timestamptz, p_fresh_since timestamptz,
  p_blocked text[], p_failing text[], p_busy text[], p_free int[], p_host_limit int)
RETURNS TABLE (id bigint, message_id text, webhook_id text, channel text, target text, payload jsonb,
  created_at timestamptz, attempts int, host text, secret text, description text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH open AS (
    SELECT r.host AS h, CASE WHEN r.host = '' THEN p_limit ELSE least(p_limit, coalesce(f.free, p_host_limit)) END AS free,
      r.host <> '' AND r.host = ANY(p_failing) AS failing
    FROM outbox_receivers() r LEFT JOIN unnest(p_busy, p_free) AS f(host, free) ON f.host = r.host
    WHERE NOT r.host = ANY(p_blocked)),
  candidates AS (
    -- Never-tried rows in two lanes of written time: fresh (lane 0) and older (lane 1), each an
    -- index range read oldest first.
    SELECT c.id, open.h, open.free, lane.n AS lane, c.created_at AS due
    FROM open CROSS JOIN (VALUES (0, p_fresh_since, 'infinity'::timestamptz),
      (1, '-infinity'::timestamptz, p_fresh_since)) AS lane(n, since, before)
    CROSS JOIN LATERAL (
      SELECT o.id, o.created_at FROM outbox o
      WHERE o.state = 'pending' AND o.attempts = 0 AND o.host = open.h
        AND o.created_at >= lane.since AND o.created_at < lane.before AND o.next_attempt_at <= p_now
      ORDER BY o.created_at LIMIT open.free FOR UPDATE SKIP LOCKED) c
    WHERE NOT open.failing
    UNION ALL
    SELECT c.id, open.h, open.free, 1, c.next_attempt_at FROM open CROSS JOIN LATERAL (
      SELECT o.id, o.next_attempt_at FROM outbox o
      WHERE o.state = 'pending' AND o.attempts > 0 AND o.host = open.h AND o.next_attempt_at <= p_now
      ORDER BY o.next_attempt_at LIMIT open.free FOR UPDATE SKIP LOCKED) c),
  ranked AS (
    SELECT c.id, c.lane, c.due, c.free, row_number() OVER (PARTITION BY c.h ORDER BY c.lane, c.due) AS n
    FROM candidates c),
  due AS (
    SELECT r.id FROM ranked r WHERE r.n <= r.free ORDER BY r.lane, r.due LIMIT p_limit),
  claimed AS (
    UPDATE outbox o SET next_attempt_at = p_lease_until, attempts = o.attempts + 1, leased = true
    FROM due WHERE o.id = due.id
    RETURNING o.id, o.message_id, o.webhook_id, o.channel, o.target, o.payload, o.created_at, o.attempts,
      o.customer_id, o.host),
  logged AS (
    INSERT INTO delivery_attempts (outbox_id, message_id, channel, target, attempt, at, duration_ms, ok)
    SELECT k.id, k.message_id, k.channel, k.target, k.attempts, p_now, 0, NULL FROM claimed k)
  SELECT k.id, k.message_id, k.webhook_id, k.channel, k.target, k.payload, k.created_at, k.attempts,
    nullif(k.host, ''),
    (SELECT c.webhook_secret FROM customers c WHERE c.id = k.customer_id),
    (SELECT w.description FROM webhooks w WHERE w.id = k.webhook_id)
  FROM claimed k;
END $$;

-- The earliest retry not yet due, to know when to look again (never-tried rows are due when
-- written, and their writing wakes the dispatcher).
CREATE OR REPLACE FUNCTION outbox_next_retry()
RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT min(t.next_attempt_at) FROM outbox_receivers() r CROSS JOIN LATERAL (
    SELECT o.next_attempt_at FROM outbox o
    WHERE o.state = 'pending' AND o.attempts > 0 AND o.host = r.host
    ORDER BY o.next_attempt_at LIMIT 1) t);
END $$;

-- Finished attempts, written in one statement: the attempts, the rows' new states and (without
-- SMTP) the sandbox messages. `attempts = i.attempt` keeps a late answer from overwriting a row
-- that another claimant has retaken; a failure never reopens a row given up meanwhile (its
-- webhook deleted).
CREATE OR REPLACE FUNCTION record_outbox_attempts(
  p_id bigint[], p_message_id text[], p_channel text[], p_target text[], p_attempt int[], p_at timestamptz[],
  p_duration_ms int[], p_status_code int[], p_ok boolean[], p_error text[], p_state text[],
  p_retry_at timestamptz[], p_mail_to text[], p_mail_subject text[], p_mail_text text[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  WITH i AS (
    SELECT * FROM unnest(p_id, p_message_id, p_channel, p_target, p_attempt, p_at, p_duration_ms,
      p_status_code, p_ok, p_error, p_state, p_retry_at, p_mail_to, p_mail_subject, p_mail_text)
    AS t(id, message_id, channel, target, attempt, at, duration_ms, status_code, ok, error, state, retry_at,
      mail_to, mail_subject, mail_text)),
  mail AS (
    INSERT INTO sandbox_mail ("to", subject, text, message_id, at)
    SELECT mail_to, mail_subject, mail_text, i.message_id, i.at FROM i WHERE mail_to IS NOT NULL),
  attempt AS (
    UPDATE delivery_attempts a SET duration_ms = i.duration_ms, status_code = i.status_code, ok = i.ok,
      error = i.error
    FROM i WHERE a.outbox_id = i.id AND a.attempt = i.attempt)
  UPDATE outbox o SET state = i.state, next_attempt_at = coalesce(i.retry_at, o.next_attempt_at),
    last_error = i.error, delivered_at = CASE WHEN i.ok THEN i.at END, leased = false
  FROM i WHERE o.id = i.id AND o.attempts = i.attempt AND (o.state = 'pending' OR i.ok);
END $$;
