CREATE TABLE "driver_booking_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"driver_id" uuid NOT NULL,
	"firebase_key" text NOT NULL,
	"customer_name" text,
	"pickup_location" text,
	"destination_location" text,
	"distance_km" double precision,
	"price" double precision,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "driver_booking_history_firebase_key_unique" UNIQUE("firebase_key")
);
--> statement-breakpoint
CREATE TABLE "driver_wallet_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"driver_id" uuid NOT NULL,
	"firebase_key" text NOT NULL,
	"kind" text NOT NULL,
	"amount" double precision NOT NULL,
	"credit" boolean NOT NULL,
	"balance_after" double precision,
	"order_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "driver_wallet_entries_firebase_key_unique" UNIQUE("firebase_key")
);
--> statement-breakpoint
CREATE TABLE "firebase_hash_params" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"fingerprint" text NOT NULL,
	"sealed" text NOT NULL,
	"rounds" integer NOT NULL,
	"mem_cost" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "firebase_hash_params_fingerprint_unique" UNIQUE("fingerprint")
);
--> statement-breakpoint
CREATE TABLE "trip_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trip_id" uuid NOT NULL,
	"firebase_key" text NOT NULL,
	"sender" text NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "trip_messages_firebase_key_unique" UNIQUE("firebase_key")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "firebase_key" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "firebase_password_hash" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "firebase_password_salt" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "firebase_hash_params_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_ratings" ADD COLUMN "firebase_key" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "firebase_key" text;--> statement-breakpoint
ALTER TABLE "driver_ratings" ADD COLUMN "firebase_key" text;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "car_brand" text;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "car_year" text;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "car_color" text;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "car_interior_color" text;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "wallet_balance" double precision;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "firebase_key" text;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "firebase_key" text;--> statement-breakpoint
ALTER TABLE "driver_booking_history" ADD CONSTRAINT "driver_booking_history_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_wallet_entries" ADD CONSTRAINT "driver_wallet_entries_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_messages" ADD CONSTRAINT "trip_messages_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "driver_booking_history_driver_idx" ON "driver_booking_history" USING btree ("driver_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "driver_wallet_entries_driver_idx" ON "driver_wallet_entries" USING btree ("driver_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trip_messages_trip_idx" ON "trip_messages" USING btree ("trip_id","firebase_key");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_firebase_hash_params_id_firebase_hash_params_id_fk" FOREIGN KEY ("firebase_hash_params_id") REFERENCES "public"."firebase_hash_params"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_firebase_key_idx" ON "accounts" USING btree ("firebase_key");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_ratings_firebase_key_idx" ON "customer_ratings" USING btree ("firebase_key");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_firebase_key_idx" ON "customers" USING btree ("firebase_key");--> statement-breakpoint
CREATE UNIQUE INDEX "driver_ratings_firebase_key_idx" ON "driver_ratings" USING btree ("firebase_key");--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_firebase_key_idx" ON "drivers" USING btree ("firebase_key");--> statement-breakpoint
CREATE UNIQUE INDEX "trips_firebase_key_idx" ON "trips" USING btree ("firebase_key");