-- A third rollup tier: a bucket per series and UTC day, kept for ever
-- like the hourly one, which a year's extremes (the records) read in 365
-- rows instead of 8,760. Filled from the hourly tier: a day's bucket is
-- the sum of its hours, and its extremes theirs.
CREATE TABLE rollup_1d (
	series INTEGER NOT NULL REFERENCES series (id),
	t      INTEGER NOT NULL, -- a multiple of 86400
	n      INTEGER NOT NULL,
	total  REAL    NOT NULL,
	lo     REAL    NOT NULL,
	hi     REAL    NOT NULL,
	cs     REAL,
	sn     REAL,
	PRIMARY KEY (series, t)
) WITHOUT ROWID;

INSERT INTO rollup_1d (series, t, n, total, lo, hi, cs, sn)
SELECT series, t - t % 86400, sum(n), sum(total), min(lo), max(hi), sum(cs), sum(sn)
FROM rollup_1h GROUP BY series, t - t % 86400;
