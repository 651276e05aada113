-- Marks (sensors.WithMark): the name of a Record call, written in the
-- same transaction as its readings, so that a source can ask after a
-- crash whether they were committed. The MQTT ingest marks each batch of
-- messages ("mqtt <client id> <batch>"). The writer keeps the newest
-- keepMarks rows (rowid order).
CREATE TABLE marks (
	name TEXT NOT NULL UNIQUE
);
