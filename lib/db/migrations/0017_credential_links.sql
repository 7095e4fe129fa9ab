-- One-time credential links (invitation, reset, second factor removal) and each user's last credential event.
CREATE TABLE "credential_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"requested_by_email" text,
	"approved_by_email" text,
	CONSTRAINT "credential_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credentials_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credential_links" ADD CONSTRAINT "credential_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credential_links_user_idx" ON "credential_links" USING btree ("user_id");