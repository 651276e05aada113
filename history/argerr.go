package history

import "fmt"

// ArgError is a query the history cannot answer because of what it asks:
// a zone or measurement it does not have, a range or step it cannot give.
// It is the caller's to correct; every other error of a query is the
// store's own (SQLite, the disk) and tells the caller nothing it can fix.
type ArgError struct {
	// Arg is what was wrong: "zone", "measurement", "range" or "step".
	Arg string
	// Valid lists the values that would do, when they are a list (the
	// zones, a zone's measurements); nil otherwise.
	Valid []string
	msg   string
}

func (e *ArgError) Error() string { return e.msg }

func argError(arg string, valid []string, format string, args ...any) *ArgError {
	return &ArgError{Arg: arg, Valid: valid, msg: fmt.Sprintf(format, args...)}
}
