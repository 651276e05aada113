-- Remote write (cmd/climated/internal/remotewrite): what the hub has sent
-- to each store it pushes to, so that after an outage it sends the
-- readings it missed, from the history, in order, and nothing twice.
-- (12 is reserved for a migration not here yet: see reservedMigrations.)
--
-- The cursor is the position of the last reading sent in the order the
-- sender reads the raw tier in: by time, then series. It moves only after
-- the store accepted a request (or refused its readings for good).
CREATE TABLE remote_write (
	url     TEXT PRIMARY KEY, -- the store, as configured
	t       INTEGER NOT NULL, -- Unix seconds of the last reading sent
	series  INTEGER NOT NULL, -- its series
	sent_at INTEGER NOT NULL, -- Unix seconds of the last request the store accepted, 0 for none yet
	sent    INTEGER NOT NULL, -- samples the store accepted, all told
	failed  INTEGER NOT NULL  -- samples the store refused for good, all told
) WITHOUT ROWID;

-- The counters of amounts (rain) as sent: each amount series' total, in
-- integers of its resolution as the raw tier keeps them, up to the cursor,
-- so that a pushed counter goes on from where it was across restarts.
CREATE TABLE remote_write_totals (
	url    TEXT    NOT NULL,
	series INTEGER NOT NULL,
	total  INTEGER NOT NULL,
	PRIMARY KEY (url, series)
) WITHOUT ROWID;
