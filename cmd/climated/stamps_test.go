package main

import "time"

// rfc3339 is a time as the data commands print it (UTC, to the second).
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }
