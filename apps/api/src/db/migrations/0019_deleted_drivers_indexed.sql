-- The deleted drivers alone, for the driver list's Deleted tab (admin, city dealer and franchise):
-- without it that page read every driver of the scope to find the few deleted ones (a sequential
-- scan of 100,000 drivers for 100 deleted). Written only when a driver is deleted or restored.
CREATE INDEX "drivers_deleted_idx" ON "drivers" USING btree ("franchise_id","name","id") WHERE "drivers"."deleted_at" is not null;
