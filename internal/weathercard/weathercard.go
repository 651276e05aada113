package weathercard

import (
	"embed"
	"io/fs"
)

//go:embed weather.js weather.css
var files embed.FS

//go:embed weather.js
var script string

//go:embed weather.css
var stylesheet string

// Files are the card's files, weather.js and weather.css, for a page
// that serves them as they are.
func Files() fs.FS { return files }

// Script is the card's script, which defines the global climatedWeather
// (its head says what the page hands it).
func Script() string { return script }

// Stylesheet is the card's stylesheet: the wind panel, its dial and the
// feels-like line, in the page's --fg, --muted, --line and --accent.
func Stylesheet() string { return stylesheet }
