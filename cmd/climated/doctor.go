package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// Status is how a doctor's check came out.
type Status string

const (
	statusOK   Status = "ok"
	statusWarn Status = "warn" // works, but not as it should on a hub
	statusFail Status = "fail" // the hub cannot do its job: exit non-zero
	statusSkip Status = "skip" // not configured, or nothing to look at here
)

// finding is one check's result: what was looked at, what was found, and
// what to do about it.
type finding struct {
	Check  string `json:"check"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorEnv is what a check may touch besides the configuration: the
// hardware seams, the clock and the system's tools, all replaceable in tests.
type doctorEnv struct {
	seams seams
	now   func() time.Time
	run   func(ctx context.Context, name string, args ...string) (string, error) // systemctl, timedatectl
	// minFree is the free space below which the database's disk fails.
	minFree uint64
	// mosquittoConf is the local mosquitto's configuration; "" is
	// Debian's (/etc/mosquitto/mosquitto.conf).
	mosquittoConf string
}

// Below this much free space the history soon stops being written.
const defaultMinFree = 64 << 20

// check is one unit of the doctor; one failing never stops the others.
type check func(ctx context.Context, cfg config.Config, env doctorEnv) []finding

// checks runs in this order, the order a hub is usually set up in.
var checks = []check{checkI2C, checkSensors, checkGPIO, checkBroker, checkDatabase, checkClock, checkService, checkToken, checkListen}

// errUnhealthy: at least one check failed (its findings say which).
var errUnhealthy = errors.New("doctor")

// runDoctor is `climated doctor [--json]`.
func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := newDataFlags("doctor", stdout, stderr)
	d.broker = true
	asJSON := d.fs.Bool("json", false, "print the findings as JSON, for scripts")
	cfg, err := d.config(args, stderr)
	if err != nil {
		return err
	}
	if d.fs.NArg() > 0 {
		fmt.Fprintf(stderr, "climated doctor: unexpected argument %q\n%s", d.fs.Arg(0), usageLine("doctor"))
		return errUsage
	}
	return doctor(ctx, cfg, doctorEnv{}, *asJSON, stdout)
}

// doctor runs every check and prints the findings.
func doctor(ctx context.Context, cfg config.Config, env doctorEnv, asJSON bool, w io.Writer) error {
	if env.now == nil {
		env.now = time.Now
	}
	if env.run == nil {
		env.run = runTool
	}
	if env.minFree == 0 {
		env.minFree = defaultMinFree
	}
	var all []finding
	for _, c := range checks {
		cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		all = append(all, c(cctx, cfg, env)...)
		cancel()
	}
	failed := 0
	for _, f := range all {
		if f.Status == statusFail {
			failed++
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			OK       bool      `json:"ok"`
			Findings []finding `json:"findings"`
		}{failed == 0, all}); err != nil {
			return err
		}
	} else {
		printFindings(w, all, failed)
	}
	if failed > 0 {
		return fmt.Errorf("%w: %s failed", errUnhealthy, plural(failed, "check"))
	}
	return nil
}

func printFindings(w io.Writer, all []finding, failed int) {
	for _, f := range all {
		fmt.Fprintf(w, "%-4s  %-8s %s\n", strings.ToUpper(string(f.Status)), f.Check, f.Detail)
		if f.Fix != "" && f.Status != statusOK {
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
