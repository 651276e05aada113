package diskwatch

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// The disk watch on a real small file system: nothing said while there is
// room; below the limit one warning in the log, however often it looks,
// and on /healthz while it lasts; back above the limit but under twice it,
// still low (a disk hovering at the limit does not flood the log); with
// room again, one line saying so and no warning.
func TestDiskWatch(t *testing.T) {
	const mb = 1 << 20
	dir := testutil.MountSmall(t, "160m")
	var log bytes.Buffer
	d := New(filepath.Join(dir, "climated.db"), 64*mb, slog.New(slog.NewTextHandler(&log, nil)))
	filler := filepath.Join(dir, "filler")
	step := func(what string, taken int64, wantWarn bool, wantLog string) {
		t.Helper()
		if taken > 0 {
			testutil.TakeSpace(t, filler, taken)
		} else {
			os.Remove(filler)
		}
		d.look()
		d.look()
		if w := d.Warnings(); (len(w) > 0) != wantWarn || wantWarn && !strings.Contains(w[0], dir) {
			t.Errorf("%s: warnings %q, want them %v", what, w, wantWarn)
		}
		if got := log.String(); !regexp.MustCompile(wantLog).MatchString(got) {
			t.Errorf("%s: log\n%s\nwant it to match %q", what, got, wantLog)
		}
		log.Reset()
	}
	step("room", 0, false, "^$")
	step("50 MB free", 110*mb, true, `^[^\n]*level=WARN msg="disk almost full" dir=\S+ free="\d+(\.\d)? MiB" total="160(\.0)? MiB" limit="64(\.0)? MiB" fix=[^\n]*\n$`)
	step("still 50 MB free", 110*mb, true, "^$")
	step("100 MB free", 60*mb, true, "^$")
	step("160 MB free", 0, false, `^[^\n]*level=INFO msg="disk space is back" [^\n]*\n$`)
}
