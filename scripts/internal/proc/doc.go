// Package proc reads what Linux says about another process in /proc:
// the CPU time it has used, for the scripts that measure a hub they run.
package proc
