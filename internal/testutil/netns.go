package testutil

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// netnsEnv marks the test binary that InNetns started inside a network
// namespace.
const netnsEnv = "CLIMATED_TEST_NETNS"

// InNetns runs the calling (top-level) test again in a test binary of its
// own inside a fresh network namespace (unshare --net, as root), where
// only loopback exists: up, with multicast on and 224.0.0.0/4 routed to
// it, so that multicast DNS stays on this machine and meets nothing of the
// host's. It returns true in that binary, where the test goes on, and
// false in the caller once the binary has ended, the test failed if it
// failed. Without root, unshare or ip the test is skipped, and fails
// under CI.
func InNetns(t *testing.T) bool {
	t.Helper()
	if os.Getenv(netnsEnv) == "1" {
		for _, args := range [][]string{{"link", "set", "lo", "up"}, {"link", "set", "lo", "multicast", "on"}, {"route", "add", "224.0.0.0/4", "dev", "lo"}} {
			if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
				t.Fatalf("ip %v in the network namespace: %v\n%s", args, err, out)
			}
		}
		return true
	}
	if os.Geteuid() != 0 {
		RequireInCI(t, "a network namespace needs root (unshare --net)")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		RequireInCI(t, "unshare (util-linux) is missing: %v", err)
	}
	if _, err := exec.LookPath("ip"); err != nil {
		RequireInCI(t, "ip (iproute2) is missing: %v", err)
	}
	cmd := exec.Command(unshare, "--net", "--", os.Args[0], "-test.run", "^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("in a network namespace of its own:\n%s", out)
	switch {
	case err != nil:
		t.Fatalf("the test in its network namespace: %v", err)
	case bytes.Contains(out, []byte("--- SKIP: "+t.Name())):
		t.Skip("skipped in its network namespace")
	case !bytes.Contains(out, []byte("--- PASS: "+t.Name())):
		t.Fatalf("the test did not run in its network namespace")
	}
	return false
}
