-- The daily summaries, kept per zone and local day: everything a day of
-- climate://daily shows that does not depend on settings read at answer
-- time (the degree days and the sun's times are worked out then). A day
-- is kept once it has ended and its readings are compacted; a reading
-- written for it later deletes its row, which is made again. The rows
-- are in the time zone day_summary_zone names; another one deletes them.
CREATE TABLE day_summary (
	zone    TEXT    NOT NULL,
	day     INTEGER NOT NULL, -- the local midnight that starts it, Unix seconds
	summary TEXT    NOT NULL, -- JSON: its measurements and feels-like; {} for a day without readings
	PRIMARY KEY (zone, day)
) WITHOUT ROWID;

CREATE TABLE day_summary_zone (
	id   INTEGER PRIMARY KEY CHECK (id = 1),
	zone TEXT    NOT NULL -- the time zone's name and offsets (dayZoneKey)
);
