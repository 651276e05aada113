-- A series is one measurement of one zone. Readings refer to it by an
-- integer id so a raw row stays small; later tiers (5-minute and hourly
-- rollups) key on the same id and need no change to these tables.
CREATE TABLE series (
	id          INTEGER PRIMARY KEY,
	zone        TEXT NOT NULL,
	measurement TEXT NOT NULL,
	source      TEXT NOT NULL DEFAULT '',
	UNIQUE (zone, measurement)
);

-- Raw readings, clustered by series and time (Unix seconds).
CREATE TABLE raw (
	series INTEGER NOT NULL REFERENCES series (id),
	t      INTEGER NOT NULL,
	v      REAL    NOT NULL,
	PRIMARY KEY (series, t)
) WITHOUT ROWID;
