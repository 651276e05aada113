package sensors

import "context"

// A State is a source's note of where it is, kept with its readings: a
// sink that keeps readings durably (history.Store) writes the state of
// the context passed to Record in the same transaction as the readings,
// replacing the key's value before it, so that after a restart the
// source reads back exactly the state of what was committed. A weather
// station's rain gauge keeps its last counter so: the rain it counted is
// in the history if and only if the counter it counted from is, and the
// first upload after a restart is counted from there, neither lost nor
// counted twice.
type State struct {
	Key, Value string
}

type stateKey struct{}

// WithState returns ctx carrying state for the sink's Record, after the
// states ctx carries already (a station's rain gauge and its lightning
// counter are two).
func WithState(ctx context.Context, key, value string) context.Context {
	return context.WithValue(ctx, stateKey{}, append(StatesOf(ctx), State{key, value}))
}

// StatesOf are the states ctx carries, in the order they were added.
func StatesOf(ctx context.Context) []State {
	s, _ := ctx.Value(stateKey{}).([]State)
	return s[:len(s):len(s)]
}
