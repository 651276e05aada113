// Command soak runs a climated daemon for a long while under the load and
// faults of a real house, and prints what was lost, duplicated and held.
// It only ever talks to loopback: a mosquitto it starts itself, the hub it
// starts itself. scripts/soak.sh builds and runs it.
//
// What runs at once, for -duration:
//   - MQTT ingest: -devices devices (zones Soak00 …), each publishing one
//     reading a second at QoS 1 in climated's hub-of-hubs format, with its
//     own time (When), so that every reading has an identity to count;
//   - -sessions MCP sessions over Streamable HTTP, each subscribed to a
//     zone and calling get_climate and get_history, reconnecting when the
//     hub restarts;
//   - one HTTP+SSE client that posts calls and never reads its stream;
//   - a broker restart every -broker-every, one SIGKILL of the hub and a
//     restart, one SIGTERM and a restart, and two disk-full episodes (the
//     database on a small tmpfs filled to the last byte, then freed): one
//     with room left in the WAL, one after the WAL was checkpointed to
//     nothing;
//   - a sample of the hub's RSS, goroutines and CPU every 5 s.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

type options struct {
	bin, mosquitto string
	duration       time.Duration
	devices        int
	sessions       int
	brokerEvery    time.Duration
	work           string
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "", "the climated binary")
	flag.StringVar(&o.mosquitto, "mosquitto", "/usr/sbin/mosquitto", "the mosquitto binary")
	flag.DurationVar(&o.duration, "duration", 20*time.Minute, "how long to run")
	flag.IntVar(&o.devices, "devices", 50, "MQTT devices, one message a second each")
	flag.IntVar(&o.sessions, "sessions", 20, "MCP sessions")
	flag.DurationVar(&o.brokerEvery, "broker-every", 4*time.Minute, "restart the broker this often")
	flag.StringVar(&o.work, "work", "", "working directory (default: a new temporary one)")
	flag.Parse()
	if o.bin == "" {
		fmt.Fprintln(os.Stderr, "soak: -bin is required (scripts/soak.sh builds it)")
		os.Exit(2)
	}
	if o.work == "" {
		d, err := os.MkdirTemp("", "climated-soak-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			os.Exit(1)
		}
		o.work = d
	}
	rep, err := run(o)
	if rep != nil {
		rep.print(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if !rep.ok() {
		os.Exit(1)
	}
}
