// Package chromium starts Debian's chromium for tests and signs in through
// it: the dashboard's browser tests and the OAuth tests, where the owner
// approves an assistant on the hub's consent page in a real browser. It is
// a package of its own, apart from testutil, so that only the tests that
// drive a browser link chromedp.
package chromium

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// Path returns the path of Debian's chromium, installing it with apt when
// it is missing, as scripts/test.sh does for mosquitto; where that fails
// the test is skipped, or fails when CI=true.
func Path(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"chromium", "/usr/bin/chromium"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Log("installing chromium: apt-get install -y chromium")
	cmd := exec.Command("sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium")
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := fmt.Sprintf("this test needs Debian's chromium and could not install it (apt-get install -y chromium; scripts/test.sh installs it): %v\n%s", err, out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg + " (required when CI=true)")
	}
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium installed but not found: %v", err)
	}
	return path
}

// Browser starts one headless chromium for the whole test, stopped when
// the test ends; tabs open in it (chromedp.NewContext of the context).
// A chromium that exits before it listens is started again, up to
// startTries times in all, each failure logged with what it printed:
// under the race run's load a launch has once died with no word
// (chromedp's "chrome failed to start" with only crashpad's warnings).
func Browser(t testing.TB) context.Context {
	t.Helper()
	path := Path(t)
	var err error
	for try := 1; try <= startTries; try++ {
		var ctx context.Context
		if ctx, err = start(t, path); err == nil {
			return ctx
		}
		t.Logf("start chromium (try %d of %d): %v", try, startTries, err)
	}
	t.Fatalf("start chromium: %d tries failed; the last: %v", startTries, err)
	return nil
}

// startTries is how many launches Browser makes before it fails.
const startTries = 3

// start launches one chromium at path; it is stopped when the test ends,
// or at once when it fails to start.
func start(t testing.TB, path string) (context.Context, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1440, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		cancelAlloc()
		return nil, err
	}
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return ctx, nil
}

// Artifacts is where a test keeps its screenshots and figures:
// $CLIMATED_ARTIFACTS (CI uploads it), else the test's temporary
// directory.
func Artifacts(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("CLIMATED_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}
