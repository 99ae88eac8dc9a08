CREATE SEQUENCE "public"."sos_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "sos_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"source" text NOT NULL,
	"person" text NOT NULL,
	"driver_id" uuid,
	"trip_id" uuid,
	"lat" double precision,
	"long" double precision,
	"position_at" timestamp with time zone,
	"note" text,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raised_by" uuid,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"reraised_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"outcome" text,
	"outcome_note" text,
	CONSTRAINT "sos_alerts_status_check" CHECK ("sos_alerts"."status" in ('open', 'acknowledged', 'escalated', 'resolved')),
	CONSTRAINT "sos_alerts_source_check" CHECK ("sos_alerts"."source" in ('driver_app', 'staff')),
	CONSTRAINT "sos_alerts_person_check" CHECK ("sos_alerts"."person" in ('driver', 'passenger'))
);
--> statement-breakpoint
CREATE TABLE "sos_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"detail" text,
	"note" text,
	"by" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_raised_by_accounts_id_fk" FOREIGN KEY ("raised_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_acknowledged_by_accounts_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_alerts" ADD CONSTRAINT "sos_alerts_resolved_by_accounts_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_events" ADD CONSTRAINT "sos_events_alert_id_sos_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."sos_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sos_events" ADD CONSTRAINT "sos_events_by_accounts_id_fk" FOREIGN KEY ("by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sos_alerts_number_idx" ON "sos_alerts" USING btree ("number");--> statement-breakpoint
CREATE INDEX "sos_alerts_raised_idx" ON "sos_alerts" USING btree ("raised_at","id");--> statement-breakpoint
CREATE INDEX "sos_alerts_open_idx" ON "sos_alerts" USING btree ("raised_at") WHERE "sos_alerts"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "sos_alerts_driver_idx" ON "sos_alerts" USING btree ("driver_id");--> statement-breakpoint
CREATE INDEX "sos_events_alert_idx" ON "sos_events" USING btree ("alert_id","id");