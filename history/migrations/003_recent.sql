-- New readings land in "recent", clustered by time, so that a commit
-- appends to one or two pages whatever the number of series; once an hour
-- the writer moves the complete hours into "raw" (clustered by series, for
-- queries) and the rollups, touching each series' pages once an hour
-- instead of once a minute. That is most of the bytes an SD card is
-- spared. Readers see raw and recent together.
CREATE TABLE recent (
	t      INTEGER NOT NULL,
	series INTEGER NOT NULL REFERENCES series (id),
	v      INTEGER NOT NULL,
	PRIMARY KEY (t, series)
) WITHOUT ROWID;
