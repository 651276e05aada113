-- Sources' states (sensors.WithState): a key's latest value, written in
-- the same transaction as the readings of its Record call, so that a
-- source reads back after a restart the state of what was committed (a
-- weather station's rain counter, from which its next rain is counted).
CREATE TABLE source_state (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;
