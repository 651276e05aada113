-- How many times each series was emptied: its readings deleted from every
-- tier because a measuring source took it from a simulated one, or its
-- source was forgotten. Another part that keeps something per series
-- (remote write's running totals) starts it again by a trigger on this
-- column, in the same transaction, whichever program emptied the series.
ALTER TABLE series ADD COLUMN resets INTEGER NOT NULL DEFAULT 0;
