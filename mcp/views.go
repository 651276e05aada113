package mcp

import (
	"embed"
	"strings"
	"sync"

	"github.com/climated/climated/internal/uplot"
)

// The views' parts, put together once into one HTML document each: the
// host's default Content-Security-Policy lets a view load nothing from
// anywhere, so the script and styles (uPlot's too) are inlined.
//
//go:embed views
var viewFS embed.FS

// views maps each view's URI to its document.
var views = sync.OnceValue(func() map[string]string {
	// uPlot's banner names its home with a URL; the view keeps the
	// credit without one (no URL at all is in a view).
	js := strings.Replace(uplot.Script(), "https://github.com/leeoniya/uPlot",
		"uPlot, MIT licence, (c) Leon Sorokin, github.com/leeoniya/uPlot", 1)
	return map[string]string{
		ViewHistoryURI: page("climated history", "history", uplot.Stylesheet()+viewPart("view.css"),
			js, viewPart("client.js"), viewPart("history.js")),
		ViewHouseURI: page("climated house", "house", viewPart("view.css"), viewPart("client.js"), viewPart("house.js")),
	}
})

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
