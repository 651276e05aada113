-- Directions (sensors.Direction: the wind's) are averaged as vectors, so
-- that 350° and 10° average to 0°, not 180°: each rollup bucket of a
-- direction keeps the sums of the cosines (cs) and sines (sn) of its
-- readings' angles, the components of their unit vectors, from which the
-- mean over any range of buckets is atan2(sum(sn), sum(cs)). Other
-- measurements leave them NULL; adding a column rewrites no row.
ALTER TABLE rollup_5m ADD COLUMN cs REAL;
ALTER TABLE rollup_5m ADD COLUMN sn REAL;
ALTER TABLE rollup_1h ADD COLUMN cs REAL;
ALTER TABLE rollup_1h ADD COLUMN sn REAL;
