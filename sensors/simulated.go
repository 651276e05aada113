package sensors

import "strings"

// SimulatedPrefix starts the name of every source whose values are
// simulated, not measured: the demo house's, "demo/<Zone>".
const SimulatedPrefix = "demo/"

// Simulated says whether source is a simulated one (SimulatedPrefix).
func Simulated(source string) bool { return strings.HasPrefix(source, SimulatedPrefix) }

// Claim says what a reading from source next does to a series whose
// source so far is cur, so that a series is either simulated or measured,
// never both (a series keeps one source, not one per reading, and one
// that mixed them could not be told apart, nor its simulated values kept
// from being shown as the house's): a simulated reading of a measured
// series is skipped; a measured reading of a simulated series resets it,
// its simulated readings dropped, and takes it.
func Claim(cur, next string) (skip, reset bool) {
	if cur == "" || next == "" || Simulated(cur) == Simulated(next) {
		return false, false
	}
	return Simulated(next), !Simulated(next)
}
