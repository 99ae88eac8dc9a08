CREATE TABLE "firebase_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"value" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"echoed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "car_rate_history" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "firebase_link_lease" ADD COLUMN "status" jsonb;--> statement-breakpoint
ALTER TABLE "firebase_link_lease" ADD COLUMN "rereads" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "firebase_outbox_path_idx" ON "firebase_outbox" USING btree ("path","id");--> statement-breakpoint
CREATE INDEX "firebase_outbox_waiting_idx" ON "firebase_outbox" USING btree ("id") WHERE "firebase_outbox"."sent_at" is null;