// Package weewx reads a weewx archive (weewx's SQLite database, its
// archive table, in the wview or wview_extended schema) as readings for
// the history's import: each column weewx keeps of a station becomes a
// measurement of a zone (columns.go, the table docs/history.md shows),
// each value converted from the record's unit system (US, METRIC or
// METRICWX) into the catalogue's units by the catalogue's conversions.
// Start reading at Open and Archive.Rows.
package weewx
