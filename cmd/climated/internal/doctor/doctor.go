package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/sensors/hw"
	"github.com/climated/climated/sensors/raingauge"
)

// Status is how a doctor's check came out.
type Status string

const (
	StatusOK   Status = "ok"
	StatusWarn Status = "warn" // works, but not as it should on a hub
	StatusFail Status = "fail" // the hub cannot do its job: exit non-zero
	StatusSkip Status = "skip" // not configured, or nothing to look at here
)

// Finding is one check's result: what was looked at, what was found, and
// what to do about it.
type Finding struct {
	Check  string `json:"check"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Env is what a check may touch besides the configuration: the
// hardware seams, the clock and the system's tools, all replaceable in tests.
type Env struct {
	OpenBus hw.Opener           // nil: the machine's I²C buses
	OpenPin raingauge.PinOpener // nil: the machine's GPIO pins
	Now     func() time.Time    // nil: time.Now
	// Run runs systemctl and timedatectl; nil runs them.
	Run func(ctx context.Context, name string, args ...string) (string, error)
	// MinFree is the free space below which the database's disk fails;
	// 0 is DefaultMinFree.
	MinFree uint64
	// MosquittoConf is the local mosquitto's configuration; "" is
	// Debian's (/etc/mosquitto/mosquitto.conf).
	MosquittoConf string
	// HTTP asks public_url; nil is a client with a 10 s timeout.
	HTTP *http.Client
}

// Below this much free space the history soon stops being written.
const DefaultMinFree = 64 << 20

// check is one unit of the doctor; one failing never stops the others.
type check func(ctx context.Context, cfg config.Config, env Env) []Finding

// checks runs in this order, the order a hub is usually set up in.
var checks = []check{checkI2C, checkSensors, checkGPIO, checkBroker, checkStation, checkDatabase, checkClock, checkService, checkToken, checkListen, checkPublicURL, checkRemoteWrite}

// ErrUnhealthy: at least one check failed (its findings say which).
var ErrUnhealthy = errors.New("doctor")

// Run runs every check and prints the findings, as text or as JSON;
// ErrUnhealthy when one failed.
func Run(ctx context.Context, cfg config.Config, env Env, asJSON bool, w io.Writer) error {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Run == nil {
		env.Run = runTool
	}
	if env.MinFree == 0 {
		env.MinFree = DefaultMinFree
	}
	var all []Finding
	for _, c := range checks {
		cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		all = append(all, c(cctx, cfg, env)...)
		cancel()
	}
	failed := 0
	for _, f := range all {
		if f.Status == StatusFail {
			failed++
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			OK       bool      `json:"ok"`
			Findings []Finding `json:"findings"`
		}{failed == 0, all}); err != nil {
			return err
		}
	} else {
		printFindings(w, all, failed)
	}
	if failed == 1 {
		return fmt.Errorf("%w: 1 check failed", ErrUnhealthy)
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d checks failed", ErrUnhealthy, failed)
	}
	return nil
}

func printFindings(w io.Writer, all []Finding, failed int) {
	for _, f := range all {
		fmt.Fprintf(w, "%-4s  %-8s %s\n", strings.ToUpper(string(f.Status)), f.Check, f.Detail)
		if f.Fix != "" && f.Status != StatusOK {
			fmt.Fprintf(w, "      %-8s fix: %s\n", "", f.Fix)
		}
	}
	if failed == 0 {
		fmt.Fprintln(w, "no check failed")
	}
}

// runTool runs a system tool and returns what it printed, trimmed.
func runTool(ctx context.Context, name string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	return strings.TrimSpace(string(out)), err
}
