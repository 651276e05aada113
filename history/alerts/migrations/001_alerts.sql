-- Alerts (package history/alerts): the rules users and assistants create,
-- the state of every rule in every zone, and the alert history.
--
-- A rule is kept as JSON in "spec" (kind, zone, measurement, threshold,
-- clear level, window and holds, in the shape of alerts.ruleJSON), so a
-- new kind of rule needs no migration. AUTOINCREMENT keeps a deleted
-- rule's number from being given to another, so the history stays true.
CREATE TABLE alert_rules (
	id      INTEGER PRIMARY KEY AUTOINCREMENT, -- the rule is "u<id>"
	spec    TEXT    NOT NULL,
	created INTEGER NOT NULL -- Unix seconds
);

-- One row per rule and zone, written on every change of phase: a restart
-- resumes a hold or a firing instead of losing or repeating it. House
-- rules' ids are "house.<key>".
CREATE TABLE alert_state (
	rule     TEXT    NOT NULL,
	zone     TEXT    NOT NULL,
	phase    TEXT    NOT NULL, -- ok, pending, firing, clearing
	since    INTEGER NOT NULL, -- Unix seconds: when the phase began
	fired_at INTEGER NOT NULL, -- Unix seconds, 0 when not firing
	value    REAL    NOT NULL,
	PRIMARY KEY (rule, zone)
) WITHOUT ROWID;

-- Every event, bounded by count and age (alerts.DBOptions).
CREATE TABLE alert_events (
	id    INTEGER PRIMARY KEY,
	t     INTEGER NOT NULL, -- Unix seconds
	type  TEXT    NOT NULL, -- fired, cleared
	rule  TEXT    NOT NULL,
	kind  TEXT    NOT NULL,
	zone  TEXT    NOT NULL,
	measurement TEXT NOT NULL,
	value REAL    NOT NULL,
	unit  TEXT    NOT NULL,
	text  TEXT    NOT NULL
);
CREATE INDEX alert_events_t ON alert_events (t);
