// Package progress shows how far a long job has come (an import, an
// export, a backup, the demo house filling in its past): a bar redrawn in
// place on a terminal, a plain line every few seconds elsewhere.
package progress
