-- The planner estimates a title search from the statistics of lower(title) that ANALYZE keeps for
-- this index. With the default 100 histogram bins over thousands of distinct names, a common
-- surname can miss every bin and be estimated at a few dozen rows: the trip list then sorts tens of
-- thousands of matches instead of walking trips_created_idx until a page is full. A finer
-- histogram keeps the estimate close enough to choose between the two.
ALTER INDEX "trips_title_search_idx" ALTER COLUMN 1 SET STATISTICS 1000;
