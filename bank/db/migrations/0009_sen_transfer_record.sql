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

-- sen_transfer(p jsonb) and sen_transfer_batch are defined in bank/db/functions/ledger.sql.
