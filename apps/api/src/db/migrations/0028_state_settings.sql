CREATE TABLE "state_settings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"name" text NOT NULL,
	"value" jsonb NOT NULL,
	"effective_from" date NOT NULL,
	"version" integer NOT NULL,
	"changed_by" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_id" text
);
--> statement-breakpoint
ALTER TABLE "state_settings" ADD CONSTRAINT "state_settings_changed_by_accounts_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "state_settings_version_idx" ON "state_settings" USING btree ("state","name","version");--> statement-breakpoint
CREATE INDEX "state_settings_effective_idx" ON "state_settings" USING btree ("state","name","effective_from" DESC NULLS LAST,"version" DESC NULLS LAST);