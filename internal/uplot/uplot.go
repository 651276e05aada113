package uplot

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// Files are the vendored files, by their names (uPlot.iife.min.js,
// uPlot.min.css, LICENSE, VERSION).
func Files() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is embedded above: cannot fail
	}
	return sub
}

// Script is the uPlot bundle, which defines the global uPlot.
func Script() string { return read("uPlot.iife.min.js") }

// Stylesheet is uPlot's stylesheet.
func Stylesheet() string { return read("uPlot.min.css") }

func read(name string) string {
	b, err := dist.ReadFile("dist/" + name)
	if err != nil {
		panic(err) // embedded at build time: cannot be missing
	}
	return string(b)
}
