ALTER TABLE "payments" ADD COLUMN "record" text DEFAULT '{}' NOT NULL;--> statement-breakpoint

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
--> statement-breakpoint

CREATE TRIGGER payments_render_record BEFORE INSERT OR UPDATE ON payments
FOR EACH ROW EXECUTE FUNCTION render_payment_record();
