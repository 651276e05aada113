-- Raw values become integers in a fixed resolution per measurement (see
-- storage.go), and two rollup tiers appear: 5-minute and hourly buckets with
-- count (n), sum (total), min (lo) and max (hi) of the values in their real units. Rollups are
-- kept up to date by the writer as readings arrive; raw readings and
-- 5-minute buckets are pruned after their retention, hourly ones are kept.
CREATE TABLE rollup_5m (
	series INTEGER NOT NULL REFERENCES series (id),
	t      INTEGER NOT NULL, -- bucket start, Unix seconds, a multiple of 300
	n      INTEGER NOT NULL,
	total  REAL    NOT NULL, -- sum of the values (the rain total)
	lo     REAL    NOT NULL,
	hi     REAL    NOT NULL,
	PRIMARY KEY (series, t)
) WITHOUT ROWID;

CREATE TABLE rollup_1h (
	series INTEGER NOT NULL REFERENCES series (id),
	t      INTEGER NOT NULL, -- a multiple of 3600
	n      INTEGER NOT NULL,
	total  REAL    NOT NULL, -- sum of the values (the rain total)
	lo     REAL    NOT NULL,
	hi     REAL    NOT NULL,
	PRIMARY KEY (series, t)
) WITHOUT ROWID;

-- Fill the rollups from what 001 recorded, then convert the raw values.
INSERT INTO rollup_5m (series, t, n, total, lo, hi)
SELECT series, t - t % 300, count(*), sum(v), min(v), max(v) FROM raw GROUP BY series, t - t % 300;
INSERT INTO rollup_1h (series, t, n, total, lo, hi)
SELECT series, t - t % 3600, count(*), sum(v), min(v), max(v) FROM raw GROUP BY series, t - t % 3600;

CREATE TABLE raw2 (
	series INTEGER NOT NULL REFERENCES series (id),
	t      INTEGER NOT NULL,
	v      INTEGER NOT NULL,
	PRIMARY KEY (series, t)
) WITHOUT ROWID;

INSERT INTO raw2 (series, t, v)
SELECT r.series, r.t, CAST(round(r.v * CASE s.measurement
		WHEN 'Temperature' THEN 1000 WHEN 'Humidity' THEN 100 WHEN 'CO2' THEN 10
		WHEN 'Noise' THEN 100 WHEN 'Pressure' THEN 1000 WHEN 'AbsolutePressure' THEN 1000
		WHEN 'Rain' THEN 10000 WHEN 'battery_vp' THEN 1 WHEN 'battery_percent' THEN 100
		WHEN 'rf_status' THEN 100 WHEN 'wifi_status' THEN 100 ELSE 1000 END) AS INTEGER)
FROM raw r JOIN series s ON s.id = r.series;

DROP TABLE raw;
ALTER TABLE raw2 RENAME TO raw;

