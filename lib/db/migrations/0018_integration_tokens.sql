-- Read-only tokens an ERP fetches statements and history with (only their SHA-256 is kept).
CREATE TABLE "integration_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"accounts" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "integration_tokens_hash_idx" ON "integration_tokens" USING btree ("token_hash");