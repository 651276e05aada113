-- A series the history empties (series.resets counts up) starts its
-- running totals again: the next source's counter counts from its own
-- readings, not on from the ones deleted.
CREATE TRIGGER remote_write_totals_reset AFTER UPDATE OF resets ON series
BEGIN
	DELETE FROM remote_write_totals WHERE series = NEW.id;
END;
