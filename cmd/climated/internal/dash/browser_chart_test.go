package dash_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// zoomAndCSV: dragging across the open 24-h chart zooms in, and the CSV
// download holds what is shown: the points of the zoomed range.
func zoomAndCSV(t *testing.T, tb *tab) {
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(tb.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{Behavior: "allow", DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	points := eval[int](t, tb, `+document.querySelector('`+firstChart+`').dataset.points`)
	box := eval[[]float64](t, tb, `(o => { o.scrollIntoView({block: 'center'}); const r = o.getBoundingClientRect(); return [r.x, r.y, r.width, r.height] })(document.querySelector('`+firstChart+` .u-over'))`)
	y := box[1] + box[3]/2
	tb.do(t, chromedp.DragAndDropXY(box[0]+box[2]*0.25, y, box[0]+box[2]*0.6, y, 10))
	tb.do(t, chromedp.Click(firstChart+` button.csv`))
	file := filepath.Join(dir, "Balcony-Temperature-24h.csv")
	var data []byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var err error
		if data, err = os.ReadFile(file); err == nil && len(data) > 0 && strings.HasSuffix(string(data), "\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no CSV download in %s after 10 s: %v", dir, err)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "time,t,mean,min,max" {
		t.Errorf("CSV header %q", lines[0])
	}
	rows := len(lines) - 1
	t.Logf("zoomed to %d of %d points; the CSV holds them", rows, points)
	if rows < 10 || rows >= points*3/4 {
		t.Errorf("CSV after zooming into about a third of the chart: %d rows of %d points", rows, points)
	}
}

// keyboard: a value is reached with the keyboard and Enter opens its
// chart, which then has the focus.
func keyboard(t *testing.T, tb *tab) {
	tb.do(t, chromedp.Focus(`.card[data-zone="Bedroom"] .value`), chromedp.KeyEvent("\r"))
	chart := `section.chart[data-zone="Bedroom"][data-m="Temperature"]`
	waitFor(t, tb, `(c => c && c.dataset.state === 'ready')(document.querySelector('`+chart+`'))`, 20*time.Second)
	if !eval[bool](t, tb, `document.activeElement === document.querySelector('`+chart+` h3')`) {
		t.Error("the opened chart does not have the focus")
	}
	if label := eval[string](t, tb, `document.querySelector('`+chart+` .plot').getAttribute('aria-label')`); !strings.Contains(label, "min") {
		t.Errorf("the chart's label does not describe it: %q", label)
	}
}
