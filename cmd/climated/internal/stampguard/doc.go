// Package stampguard guards the history against a clock that cannot be right:
// a Pi has no real-time clock and says 1970 until NTP answers. Guard
// refuses readings stamped before the clock can be right, and AheadText
// and AheadFix are the words for readings the history holds ahead of the
// clock, the same at start-up, in the doctor and after an import.
package stampguard
