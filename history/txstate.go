package history

// txState is what a transaction learnt about series, adopted by the writer
// once it commits. A child holds what one row learnt under its savepoint:
// released into its parent when the row is written, forgotten when the row
// is rolled back, so a series created and rolled back with a refused row is
// never used by a later one.
type txState struct {
	parent  *txState
	created map[seriesKey]int64
	sources map[int64]string
	// written counts the readings writeTx wrote per series and the
	// transaction keeps: those of a series a later reading took from the
	// demo are deleted, and no longer counted.
	written map[int64]int64
	// summarised counts the readings writeTx left out, as falling into
	// buckets the history summarises already past the raw retention.
	summarised int64
}

func newTxState() *txState {
	return &txState{created: map[seriesKey]int64{}, sources: map[int64]string{}, written: map[int64]int64{}}
}

// writtenAll is how many readings writeTx wrote, all series together.
func (t *txState) writtenAll() (n int64) {
	for _, k := range t.written {
		n += k
	}
	return n
}

func (t *txState) child() *txState {
	c := newTxState()
	c.parent = t
	return c
}

// id is the series of k created within the transaction, if any.
func (t *txState) id(k seriesKey) (int64, bool) {
	for s := t; s != nil; s = s.parent {
		if id, ok := s.created[k]; ok {
			return id, true
		}
	}
	return 0, false
}

// source is the source of series id as written within the transaction.
func (t *txState) source(id int64) (string, bool) {
	for s := t; s != nil; s = s.parent {
		if src, ok := s.sources[id]; ok {
			return src, true
		}
	}
	return "", false
}

// release hands what a child learnt to its parent.
func (t *txState) release() {
	for k, id := range t.created {
		t.parent.created[k] = id
	}
	for id, src := range t.sources {
		t.parent.sources[id] = src
	}
}
