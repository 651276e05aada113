// Package config is the hub's configuration: the defaults, the YAML file
// decoded over them, one validation at start-up, and errors that name the
// file, the line and the key that is wrong, in the user's words.
//
// Every command of climated reads its configuration through Load; the
// annotated example (Example) and the starter file (Starter) are the
// ones "climated config example" prints.
package config
