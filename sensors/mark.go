package sensors

import "context"

// A mark names one Record call so that the source can learn, after a
// crash, whether its readings were committed: a sink that keeps readings
// durably (history.Store) writes the mark of the context passed to Record
// in the same transaction as the readings, so the mark is there if and
// only if they are. The MQTT ingest marks each batch of messages it
// records: a message the broker delivers again after the hub was killed
// between that commit and the acknowledgement is then known to be
// recorded, and a rain amount in it is not counted twice.
//
// Wrappers between a source and the history pass the context on, and with
// it the mark; one that records nothing of a call (all readings refused)
// leaves the mark unwritten, which says "not recorded", as it is.
type markKey struct{}

// WithMark returns ctx carrying mark for the sink's Record.
func WithMark(ctx context.Context, mark string) context.Context {
	return context.WithValue(ctx, markKey{}, mark)
}

// MarkOf is the mark ctx carries, "" when none.
func MarkOf(ctx context.Context) string {
	m, _ := ctx.Value(markKey{}).(string)
	return m
}
