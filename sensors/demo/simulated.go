package demo

import "strings"

// SourcePrefix starts the name of every source of the demo house:
// "demo/<Zone>".
const SourcePrefix = "demo/"

// Simulated says whether source is one of the demo house's, whose values
// are simulated, not measured.
func Simulated(source string) bool { return strings.HasPrefix(source, SourcePrefix) }
