// Package configcmd is climated config: check, which decodes and
// validates a configuration file and says what it sets up, and example,
// which prints the annotated example or the starter file.
package configcmd
