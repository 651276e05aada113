-- A series the history empties (series.resets counts up) starts its
-- running totals again: the next source's counter counts from its own
-- readings, not on from the ones deleted.
CREATE TRIGGER remote_write_totals_reset AFTER UPDATE OF resets ON series
BEGIN
	DELETE FROM remote_write_totals WHERE series = NEW.id;
END;

-- The series the history emptied before this step (between the history's
-- step that counts resets and remote write's opening, as at the first
-- start after an upgrade) start again too.
DELETE FROM remote_write_totals WHERE series IN (SELECT id FROM series WHERE resets > 0);
