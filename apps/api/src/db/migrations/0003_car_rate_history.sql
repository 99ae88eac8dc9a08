CREATE TABLE "car_rate_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"car_type" text NOT NULL,
	"action" text NOT NULL,
	"version" integer NOT NULL,
	"before" jsonb,
	"after" jsonb NOT NULL,
	"copied_from" text,
	"changed_by" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_id" text
);
--> statement-breakpoint
ALTER TABLE "car_rate_history" ADD CONSTRAINT "car_rate_history_changed_by_accounts_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "car_rate_history_state_idx" ON "car_rate_history" USING btree ("state","id" DESC NULLS LAST);