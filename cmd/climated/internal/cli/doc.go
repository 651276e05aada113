// Package cli is climated's command line: the list of commands and their
// usage lines, help asked for in any of the usual ways, the flag sets
// that print them on wrong use, and the flags every data command takes to
// find the hub's configuration and database.
package cli
