package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/climated/climated/internal/testutil/chromium"
)

// hostStyles is testdata/apps/host-styles.json: the CSS variables ext-apps'
// example host sends, every colour as light-dark(LIGHT, DARK); the file
// says where they come from.
type hostStyles struct {
	Package   string            `json:"package"`
	File      string            `json:"file"`
	Variables map[string]string `json:"variables"`
}

func readHostStyles(t *testing.T) hostStyles {
	t.Helper()
	b, err := os.ReadFile("testdata/apps/host-styles.json")
	if err != nil {
		t.Fatal(err)
	}
	var s hostStyles
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("testdata/apps/host-styles.json: %v", err)
	}
	return s
}

var lightDark = regexp.MustCompile(`^light-dark\(#([0-9a-f]{6}), #([0-9a-f]{6})\)$`)

// color is the variable name's colour in theme ("light" or "dark").
func (s hostStyles) color(t *testing.T, name, theme string) rgb {
	t.Helper()
	m := lightDark.FindStringSubmatch(s.Variables[name])
	if m == nil {
		t.Fatalf("%s is %q, not light-dark(#rrggbb, #rrggbb)", name, s.Variables[name])
	}
	hex := m[1]
	if theme == "dark" {
		hex = m[2]
	}
	v, _ := strconv.ParseUint(hex, 16, 32)
	return rgb{uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

// rgb is a pixel's colour, opaque.
type rgb struct{ R, G, B uint8 }

func (c rgb) String() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// luminance is WCAG 2's relative luminance.
func (c rgb) luminance() float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrast is WCAG 2's contrast ratio of a and b, 1 to 21.
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// near: every channel of a within tol of b's.
func near(a, b rgb, tol int) bool {
	d := func(x, y uint8) bool { return math.Abs(float64(x)-float64(y)) <= float64(tol) }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// shot is a screenshot of the host page, decoded.
type shot struct{ img image.Image }

func (s shot) at(x, y int) rgb {
	r, g, b, _ := s.img.At(x, y).RGBA()
	return rgb{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// mode is the commonest colour in r: the background of a strip of the chart.
func (s shot) mode(r image.Rectangle) rgb {
	count := map[rgb]int{}
	best := rgb{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := s.at(x, y)
			count[c]++
			if count[c] > count[best] {
				best = c
			}
		}
	}
	return best
}

// strongest is the colour in r that stands out most from bg: in a strip
// of axis labels, the labels' colour (the core of a glyph's stroke is
// drawn in it, its edges blended into bg).
func (s shot) strongest(r image.Rectangle, bg rgb) rgb {
	best := bg
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := s.at(x, y); contrast(c, bg) > contrast(best, bg) {
				best = c
			}
		}
	}
	return best
}

// grid is the colour of the chart's horizontal grid lines in the plot
// area r on bg: the commonest colour of the rows that are not mostly bg
// (a grid line crosses the whole area, the series only a few pixels of
// a row), the one that stands out most; bg when there is none.
func (s shot) grid(r image.Rectangle, bg rgb) rgb {
	best := bg
	for y := r.Min.Y; y < r.Max.Y; y++ {
		c := s.mode(image.Rect(r.Min.X, y, r.Max.X, y+1))
		if contrast(c, bg) > contrast(best, bg) {
			best = c
		}
	}
	return best
}

// chartParts are the parts of the history chart in the frame named id,
// in the host page's screenshot's pixels: the y axis's labels (left of
// the plot area and its ticks), the x axis's (below them), and the plot
// area.
type chartParts struct{ yLabels, xLabels, plot image.Rectangle }

// chartShot takes a screenshot of the host page, saved as name in dir, and
// finds in it the parts of the chart in the frame named id.
func (a *appsTab) chartShot(id, dir, name string) (shot, chartParts) {
	a.t.Helper()
	frame := eval[[]float64](a.t, a.ctx, `(() => { const f = document.getElementById(`+strconv.Quote(id)+`), r = f.getBoundingClientRect();
		return [r.left + f.clientLeft + scrollX, r.top + f.clientTop + scrollY, devicePixelRatio]; })()`)
	box := eval[[]float64](a.t, a.view(id), `(() => { const c = document.querySelector(".plot canvas").getBoundingClientRect(),
		o = document.querySelector(".u-over").getBoundingClientRect();
		return [c.left, c.top, c.right, c.bottom, o.left, o.top, o.right, o.bottom]; })()`)
	px := func(i int) int { // box[i] in the screenshot's pixels
		off := frame[i%2]
		return int(math.Round((box[i] + off) * frame[2]))
	}
	canvas := image.Rect(px(0), px(1), px(2), px(3))
	plot := image.Rect(px(4), px(5), px(6), px(7))
	tick := int(math.Ceil(12 * frame[2])) // uPlot's ticks are 10 px long, its gap 5
	parts := chartParts{
		yLabels: image.Rect(canvas.Min.X, plot.Min.Y, plot.Min.X-tick, plot.Max.Y),
		xLabels: image.Rect(plot.Min.X, plot.Max.Y+tick, plot.Max.X, canvas.Max.Y),
		plot:    plot.Inset(1),
	}
	// The host page just left of the frame's border.
	page := image.Pt(int((frame[0]-4)*frame[2]), int((frame[1]+4)*frame[2]))
	return a.paintedShot(dir, name, parts.plot, page), parts
}

// paintedShot takes a screenshot of the host page, saved as name in dir,
// once the frame is painted in it: its plot area is not all the host
// page's colour, that of the point page (a frame of another process is
// painted apart, later under -race than its size says).
func (a *appsTab) paintedShot(dir, name string, plot image.Rectangle, page image.Point) shot {
	a.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := chromedp.Run(a.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			a.t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			a.t.Fatalf("the screenshot: %v", err)
		}
		s := shot{img}
		if s.mode(plot) != s.at(page.X, page.Y) || time.Now().After(deadline) {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				a.t.Fatal(err)
			}
			return s
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestAppsHostStylesInBrowser: the history view shown by ext-apps'
// AppBridge with the CSS variables its example host sends (colours as
// light-dark(…)), in the light theme and the dark, and a light view
// turned dark by a host-context-changed: on the screenshot the axes'
// labels are the host's text colour and stand out from the chart's
// background (the host's) by WCAG's 4.5:1, and the grid is drawn in the
// host's border colour, not black.
func TestAppsHostStylesInBrowser(t *testing.T) {
	browser := chromium.Browser(t)
	h, _ := runHub(t, demoConfig(t))
	a := newAppsTab(t, browser, appsHost(t, fmt.Sprintf("http://%s", h.Addr)))
	dir, styles := chromium.Artifacts(t), readHostStyles(t)
	vars, _ := json.Marshal(styles.Variables)
	t.Logf("the host styles of %s, %s", styles.Package, styles.File)
	for _, theme := range []string{"light", "dark"} {
		id := "styles-" + theme
		eval[string](t, a.ctx, `host.show(`+strconv.Quote(id)+`, "get_history", {zone: "Indoor", measurement: "Temperature"}, `+strconv.Quote(theme)+`, "100%", `+string(vars)+`)`)
		until(t, a.view(id), "the chart", `document.getElementById("app").dataset.state === "ready"`)
		checkStyledChart(t, a, styles, id, theme, dir, "apps-styles-"+theme+".png")
	}
	eval[bool](t, a.ctx, `host.theme("dark"), true`)
	until(t, a.view("styles-light"), "the light view turns dark", `document.documentElement.dataset.theme === "dark"`)
	checkStyledChart(t, a, styles, "styles-light", "dark", dir, "apps-styles-turned-dark.png")
	checkRangesOnOneLine(t, a, "styles-light", dir)
	a.check()
}

// checkRangesOnOneLine: in a phone's column (380 pixels) the history
// view's range switches stay together on one line, each on one line of
// its own text ("1 year" wrapped to a line of its own); the screenshot
// goes to dir.
func checkRangesOnOneLine(t *testing.T, a *appsTab, id, dir string) {
	t.Helper()
	if err := chromedp.Do(a.ctx, chromedp.EmulateViewport(380, 900)); err != nil {
		t.Fatal(err)
	}
	v := a.view(id)
	until(t, v, "a narrow column", `window.innerWidth < 380`)
	a.settle(id)
	boxes := eval[[][]float64](t, v, `[...document.querySelectorAll("button[data-range]")].map((b) => { const r = b.getBoundingClientRect(); return [r.top, r.height, r.right]; })`)
	for _, b := range boxes[1:] {
		if b[0] != boxes[0][0] || b[1] != boxes[0][1] {
			t.Errorf("at 380 px the range switches are not on one line: top and height of each %v", boxes)
			break
		}
	}
	if w := eval[float64](t, v, `document.documentElement.clientWidth`); boxes[len(boxes)-1][2] > w {
		t.Errorf("at 380 px the last range switch ends at %v, beyond the view's %v", boxes[len(boxes)-1][2], w)
	}
	a.shot(dir, "apps-styles-narrow.png")
}

// checkStyledChart: the chart in the frame named id, in theme, is drawn
// in the host's colours, on a screenshot saved as name in dir.
func checkStyledChart(t *testing.T, a *appsTab, styles hostStyles, id, theme, dir, name string) {
	t.Helper()
	a.settle(id)
	img, parts := a.chartShot(id, dir, name)
	bg := img.mode(parts.plot)
	if want := styles.color(t, "--color-background-primary", theme); !near(bg, want, 2) {
		t.Errorf("%s: the chart's background is %s, not the host's %s", id, bg, want)
	}
	checkAxisLabels(t, id, img, parts, styles.color(t, "--color-text-primary", theme))
	grid, want := img.grid(parts.plot, bg), styles.color(t, "--color-border-primary", theme)
	t.Logf("%s: the grid %s on %s", id, grid, bg)
	if !near(grid, want, 24) {
		t.Errorf("%s: the grid is drawn in %s, not the host's border colour %s", id, grid, want)
	}
}

// checkAxisLabels: the labels of both axes are drawn in the host's text
// colour text and stand out from the chart's background by at least
// 4.5:1 (WCAG AA for text).
func checkAxisLabels(t *testing.T, id string, img shot, parts chartParts, text rgb) {
	t.Helper()
	for _, ax := range []struct {
		name  string
		strip image.Rectangle
	}{{"y", parts.yLabels}, {"x", parts.xLabels}} {
		bg := img.mode(ax.strip)
		label := img.strongest(ax.strip, bg)
		c := contrast(label, bg)
		t.Logf("%s: the %s axis's labels %s on %s, %.2f:1", id, ax.name, label, bg, c)
		if c < 4.5 {
			t.Errorf("%s: the %s axis's labels are %s on %s, contrast %.2f:1, want at least 4.5:1", id, ax.name, label, bg, c)
		}
		if !near(label, text, 8) {
			t.Errorf("%s: the %s axis's labels are %s, not the host's text colour %s", id, ax.name, label, text)
		}
	}
}
