package mcp

import (
	"embed"
	"strings"
	"sync"

	"github.com/climated/climated/internal/uplot"
	"github.com/climated/climated/internal/weathercard"
)

// The views' parts, put together once into one HTML document each: the
// host's default Content-Security-Policy lets a view load nothing from
// anywhere, so the script and styles (uPlot's and the weather card's
// too) are inlined.
//
//go:embed views
var viewFS embed.FS

// views maps each view's URI to its document.
var views = sync.OnceValue(func() map[string]string {
	// uPlot's banner names its home with a URL; the view keeps the
	// credit without one (no URL at all is in a view).
	js := strings.Replace(uplot.Script(), "https://github.com/leeoniya/uPlot",
		"uPlot, MIT licence, (c) Leon Sorokin, github.com/leeoniya/uPlot", 1)
	client := lean(viewPart("client.js"))
	return map[string]string{
		ViewHistoryURI: page("climated history", "history", uplot.Stylesheet()+viewPart("view.css"),
			js, client, lean(weathercard.Script()), lean(viewPart("history.js"))),
		ViewHouseURI: page("climated house", "house", viewPart("view.css")+leanCSS(weathercard.Stylesheet()),
			client, lean(weathercard.Script()), lean(viewPart("house.js"))),
	}
})

// lean is a script of ours without its comment lines and indentation,
// which a host fetches with every answer that shows the view and no one
// reads there (a fifth of the house view's weight, gzipped). Nothing
// else changes: a line ending a comment after code keeps it, and none of
// these scripts has a string or template that spans lines.
func lean(js string) string {
	return trimLines(js, func(l string) bool { return strings.HasPrefix(l, "//") })
}

// leanCSS is a stylesheet of ours without its comments and indentation.
func leanCSS(css string) string {
	for {
		i := strings.Index(css, "/*")
		j := strings.Index(css[max(i, 0):], "*/")
		if i < 0 || j < 0 {
			return trimLines(css, func(string) bool { return false })
		}
		css = css[:i] + css[i+j+2:]
	}
}

// trimLines is s with each line trimmed, less the empty ones and those
// drop names.
func trimLines(s string, drop func(string) bool) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !drop(l) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// page is one view's document: its title, name, styles and scripts.
func page(title, name, style string, scripts ...string) string {
	var b strings.Builder
	for _, s := range scripts {
		b.WriteString("<script>\n" + s + "\n</script>\n")
	}
	return strings.NewReplacer("{{title}}", title, "{{name}}", name, "{{style}}", style, "{{scripts}}", b.String()).
		Replace(viewPart("page.html"))
}

func viewPart(name string) string {
	b, err := viewFS.ReadFile("views/" + name)
	if err != nil {
		panic(err) // embedded above: cannot be missing
	}
	return string(b)
}
