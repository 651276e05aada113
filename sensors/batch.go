package sensors

// Batch is what a source hands its sink in one Record call: readings,
// and what must be committed with them or not at all.
//
// Mark names the call so that the source can learn, after a crash,
// whether its readings were committed: the history writes it in the same
// transaction as the readings, so it is there if and only if they are
// (history.Store.Marked). The MQTT ingest marks each batch of messages:
// a message the broker delivers again after the hub was killed between
// that commit and the acknowledgement is then known to be recorded, and
// a rain amount in it is not counted twice. A call whose readings are all
// refused leaves its mark unwritten, which says "not recorded", as it is.
//
// States are the source's notes of where it is, committed with the
// readings (history.Store.SourceState), each replacing its key's value
// before it: a weather station's rain gauge keeps its last counter so,
// and the rain it counted is in the history if and only if the counter
// it counted from is.
type Batch struct {
	Readings []Reading
	Mark     string  // "" when the source does not ask
	States   []State // in the order they were added; a later one of a key wins
}

// State is one note of a source (Batch.States).
type State struct {
	Key, Value string
}
