CREATE TABLE "statement_deliveries" (
	"subscription_id" uuid NOT NULL,
	"business_day" text NOT NULL,
	"from_day" text NOT NULL,
	"to_day" text NOT NULL,
	"status" text NOT NULL,
	"claim_token" text,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"file_name" text,
	"content" text,
	"mail_id" uuid,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "statement_deliveries_subscription_id_business_day_pk" PRIMARY KEY("subscription_id","business_day"),
	CONSTRAINT "statement_deliveries_status_check" CHECK ("statement_deliveries"."status" IN ('claimed', 'delivered'))
);
--> statement-breakpoint
CREATE TABLE "statement_subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"accounts" text[] NOT NULL,
	"recipients" text[] NOT NULL,
	"starts_on" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachment_name" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachment_type" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachment" text;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD CONSTRAINT "statement_deliveries_subscription_id_statement_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."statement_subscriptions"("id") ON DELETE cascade ON UPDATE no action;