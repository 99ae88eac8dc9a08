-- Indexes for the lists' sorts: accounts by name and by state then name, a franchise's drivers by
-- creation, trips by price (unknown prices as the lowest, as the list query spells it).
CREATE INDEX "accounts_role_name_idx" ON "accounts" USING btree ("role",coalesce("display_name", ''),"id");--> statement-breakpoint
CREATE INDEX "accounts_role_state_idx" ON "accounts" USING btree ("role",coalesce("state", ''),coalesce("display_name", ''),"id");--> statement-breakpoint
CREATE INDEX "drivers_franchise_created_idx" ON "drivers" USING btree ("franchise_id","created_at","id");--> statement-breakpoint
CREATE INDEX "trips_price_idx" ON "trips" USING btree (coalesce("price", -1),"id");