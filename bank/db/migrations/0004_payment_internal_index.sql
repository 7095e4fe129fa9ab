-- A book transfer (direction Internal) is listed for the credited account too.
CREATE INDEX IF NOT EXISTS payments_internal_credit_idx ON payments ((details->>'credit_account_id'), payment_date)
WHERE direction = 'Internal';
