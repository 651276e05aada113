-- Remote write (cmd/climated/internal/remotewrite): a store's way over
-- the readings sent ahead of the hub's clock, once the clock was set back
-- behind them, kept so that a restart goes on where it was: it neither
-- sends again the readings recorded since the clock was set right that
-- went already, nor skips those that did not.
--
-- While a store has a row here, its remote_write row is the position of
-- the last reading sent among those recorded since (behind the clock),
-- and this row says where the readings sent ahead lie: the sender sends
-- up to the second before from_t, and when the clock reaches from_t goes
-- on after (ahead_t, ahead_series), deleting the row. A database of a
-- hub that stopped while set back before this step kept the last
-- reading sent ahead as the cursor; that sender finds the clock behind
-- it again when it starts.
CREATE TABLE remote_write_set_back (
	url          TEXT PRIMARY KEY,  -- the store, as configured
	ahead_t      INTEGER NOT NULL, -- Unix seconds of the last reading sent ahead of the clock
	ahead_series INTEGER NOT NULL, -- its series
	from_t       INTEGER NOT NULL  -- Unix seconds of the first reading sent ahead
) WITHOUT ROWID;
