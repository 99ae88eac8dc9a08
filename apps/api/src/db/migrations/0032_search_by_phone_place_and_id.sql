-- An Indian phone number as the console compares them: its last ten digits (the code's
-- normalisePhone), so that +91 85482 84189, 918548284189 and 08548284189 are one number; null with
-- fewer than ten digits.
CREATE FUNCTION "phone_key"(phone text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN length(regexp_replace(phone, '\D', '', 'g')) >= 10
    THEN right(regexp_replace(phone, '\D', '', 'g'), 10) END
$$;
--> statement-breakpoint
CREATE INDEX "drivers_phone_key_idx" ON "drivers" USING btree (phone_key("phone_number"));--> statement-breakpoint
CREATE INDEX "trips_places_search_idx" ON "trips" USING gin (lower(coalesce("pickup_location", '') || ' ' || coalesce("destination_location", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "trips_phone_key_idx" ON "trips" USING btree (phone_key("phone_number"));--> statement-breakpoint
CREATE INDEX "trips_short_id_idx" ON "trips" USING btree (right("id"::text, 6));