CREATE SEQUENCE "public"."grievance_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "console_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"changed_by" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grievance_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"grievance_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text,
	"text" text,
	"by" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grievances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"category" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"complainant_kind" text NOT NULL,
	"complainant_name" text NOT NULL,
	"complainant_phone" text,
	"complainant_email" text,
	"complainant_language" text DEFAULT 'en' NOT NULL,
	"trip_id" uuid,
	"driver_id" uuid,
	"customer_id" uuid,
	"state" text,
	"description" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"clock_from" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"resolution" text,
	"resolved_at" timestamp with time zone,
	"search_text" text NOT NULL,
	"logged_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grievances_status_check" CHECK ("grievances"."status" in ('open', 'in_progress', 'waiting', 'resolved', 'closed', 'reopened')),
	CONSTRAINT "grievances_category_check" CHECK ("grievances"."category" in ('fare', 'behaviour', 'safety', 'vehicle', 'lost_item', 'payment', 'app', 'other')),
	CONSTRAINT "grievances_priority_check" CHECK ("grievances"."priority" in ('low', 'normal', 'high', 'urgent')),
	CONSTRAINT "grievances_complainant_check" CHECK ("grievances"."complainant_kind" in ('customer', 'driver', 'other'))
);
--> statement-breakpoint
CREATE TABLE "holidays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"day" date NOT NULL,
	"state" text,
	"name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console_settings" ADD CONSTRAINT "console_settings_changed_by_accounts_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievance_events" ADD CONSTRAINT "grievance_events_grievance_id_grievances_id_fk" FOREIGN KEY ("grievance_id") REFERENCES "public"."grievances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievance_events" ADD CONSTRAINT "grievance_events_by_accounts_id_fk" FOREIGN KEY ("by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievances" ADD CONSTRAINT "grievances_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievances" ADD CONSTRAINT "grievances_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievances" ADD CONSTRAINT "grievances_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievances" ADD CONSTRAINT "grievances_logged_by_accounts_id_fk" FOREIGN KEY ("logged_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grievance_events_grievance_idx" ON "grievance_events" USING btree ("grievance_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "grievances_number_idx" ON "grievances" USING btree ("number");--> statement-breakpoint
CREATE INDEX "grievances_due_idx" ON "grievances" USING btree ("due_at","id");--> statement-breakpoint
CREATE INDEX "grievances_received_idx" ON "grievances" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "grievances_driver_idx" ON "grievances" USING btree ("driver_id");--> statement-breakpoint
CREATE INDEX "grievances_trip_idx" ON "grievances" USING btree ("trip_id");--> statement-breakpoint
CREATE UNIQUE INDEX "holidays_day_state_idx" ON "holidays" USING btree ("day",coalesce("state", ''));