-- The figures the triggers of migration 0010 keep, recomputed whole from the rows. A bulk load
-- (the demo seed, an import) turns the triggers off, writes its rows and calls these once: one
-- grouped pass over the table instead of a grouped upsert for every batch it wrote.
CREATE FUNCTION "trip_stats_rebuild"() RETURNS void LANGUAGE sql AS $$
  DELETE FROM trip_daily_stats;
  DELETE FROM trip_hourly_stats;
  INSERT INTO trip_daily_stats (day, franchise_id, state, car_type, status, cancel_reason,
    trips, fare_total, fare_trips, distance_total, distance_trips)
  SELECT (t.created_at at time zone 'Asia/Kolkata')::date, d.franchise_id, d.state, t.car_type, t.status,
    case when t.status = 'cancelled' then left(coalesce(t.cancel_reason, ''), 200) else '' end,
    count(*), coalesce(sum(t.price::numeric), 0), count(t.price), coalesce(sum(t.distance_km::numeric), 0), count(t.distance_km)
  FROM trips t LEFT JOIN drivers d ON d.id = t.driver_id
  GROUP BY 1, 2, 3, 4, 5, 6;
  INSERT INTO trip_hourly_stats (day, hour, franchise_id, trips)
  SELECT (t.created_at at time zone 'Asia/Kolkata')::date, extract(hour from t.created_at at time zone 'Asia/Kolkata')::int,
    d.franchise_id, count(*)
  FROM trips t LEFT JOIN drivers d ON d.id = t.driver_id
  GROUP BY 1, 2, 3;
$$;
--> statement-breakpoint
CREATE FUNCTION "documents_awaiting_review_rebuild"() RETURNS void LANGUAGE sql AS $$
  UPDATE drivers SET documents_awaiting_review = c.n
  FROM (
    SELECT d.id, count(x.driver_id)::int AS n
    FROM drivers d LEFT JOIN driver_documents x ON x.driver_id = d.id AND x.status = 'submitted'
    GROUP BY d.id
  ) c
  WHERE drivers.id = c.id AND drivers.documents_awaiting_review <> c.n;
$$;
