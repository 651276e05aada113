#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls exactly this).
# It installs what the tests need on a fresh Debian 12 machine with Go,
# builds the release binaries once, then runs the independent parts side
# by side (go test, QEMU, install, Debian packages, MCP conformance), each
# into a log of its own that is printed as it ends.
#
# Just the Go tests, on any machine with Go: go test ./...  (tests that
# need what this script installs skip, saying how to get it), or
# go test -short ./... to leave out the long ones.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."

# Tests that need what this script installs (Node from npm, the broker)
# skip on a bare checkout, but not here: CI=true makes them required.
export CI=true
start=$(date +%s)
since() { echo "$(($(date +%s) - $1))s"; }

# Everything from apt in one go, before anything runs in parallel (apt
# holds a lock): gcc for go test -race (cgo), mosquitto for the MQTT broker
# tests, chromium for the dashboard, prometheus (with promtool) for the
# tests of /metrics and of pushing (with victoria-metrics), qemu-user-static, lintian and systemd-nspawn for the
# scripts, iproute2 and dig for the mDNS tests.
need=()
command -v gcc >/dev/null || need+=(gcc)
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v chromium >/dev/null || need+=(chromium) # the browser tests: the dashboard, OAuth consent
command -v prometheus >/dev/null && command -v promtool >/dev/null || need+=(prometheus) # a real Prometheus scrapes hubs; promtool checks /metrics
command -v victoria-metrics >/dev/null || need+=(victoria-metrics) # a real store the hubs push to (remote write)
command -v qemu-aarch64-static >/dev/null && command -v qemu-arm-static >/dev/null || need+=(qemu-user-static)
command -v lintian >/dev/null || need+=(lintian)
command -v systemd-nspawn >/dev/null || need+=(systemd-container)
# ip and unshare for the mDNS tests, each in a network namespace of its
# own, and dig, a DNS client of BIND's, to read the responder's answers.
command -v ip >/dev/null || need+=(iproute2)
command -v unshare >/dev/null || need+=(util-linux)
command -v dig >/dev/null || need+=(bind9-dnsutils)
if [ ${#need[@]} -gt 0 ]; then
	echo "== installing ${need[*]}"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "== MCP clients from npm (TypeScript SDK, conformance suite, Node 22)"
scripts/mcp-clients/install.sh
echo "== installed what the tests need in $(since "$start")"

echo "== gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "not gofmt-formatted:"; echo "$unformatted"; exit 1
fi

tmp=$(mktemp -d)
pids=()
# Each part runs in a process group of its own (job control), so that an
# interrupted run stops all of a part (go test's test binaries, a hub under
# QEMU), not just its shell.
set -m
cleanup() {
	for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# part NAME COMMAND...: runs COMMAND in the background, its output in a log.
declare -A names
part() {
	local name=$1
	shift
	("$@" >"$tmp/$name.log" 2>&1; echo $? >"$tmp/$name.status") &
	pids+=($!)
	names[$!]=$name
	echo "== started at $(since "$start"): $name"
}

# go test is the longest part: it starts first, and the rest is built
# and started beside it. SQLite (modernc.org/sqlite/lib, C translated to
# Go) and its C library are built without the race detector's
# instrumentation: it made every query 5 to 10 times slower and looked only
# at SQLite's own memory, which SQLite's mutexes guard. Our code, the
# database/sql driver (modernc.org/sqlite) and everything else stay
# instrumented.
norace=(-gcflags=modernc.org/sqlite/lib=-race=false -gcflags=modernc.org/libc/...=-race=false)
part "go test -race" go test -race "${norace[@]}" -count=1 -timeout 20m ./...
# The Debian packages' part builds its own binaries and then mostly waits
# (dpkg, a container booting, a watchdog firing): it needs nothing below,
# so it starts now rather than after the checks and builds.
part "Debian packages: contents, lintian, unit, maintainer scripts" scripts/deb-test.sh

echo "== go vet"
go vet ./...

echo "== function size (scripts/complexity.sh: at most 60 lines, cognitive complexity 20)"
scripts/complexity.sh

# Built once: the static release binaries (CGO_ENABLED=0) of every target,
# which the QEMU, install and conformance parts then share.
echo "== static release builds: arm64, armv6, armv7, amd64 (scripts/build.sh)"
version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
DIST=$tmp/dist scripts/build.sh "$version" >/dev/null
export VERSION=$version

# The OAuth scope gate against go-sdk's own reading of the same bodies,
# fuzzed for a bounded time on one worker (the seeds run in go test too).
part "fuzz: the scope gate against go-sdk (60 s)" go test -run '^$' -fuzz '^FuzzScopeGate$' -fuzztime 60s -parallel 1 ./cmd/climated/internal/front/
part "release binaries under QEMU: arm64, armv7, armv6" scripts/qemu-test.sh "$tmp/dist"
part "install onto fake hubs over stand-in ssh" scripts/install-test.sh "$tmp/dist"
if [ "$(uname -m)" = x86_64 ]; then
	part "MCP conformance suite" env CLIMATED_BIN="$tmp/dist/climated-linux-amd64" scripts/conformance.sh
else
	part "MCP conformance suite" scripts/conformance.sh
fi

failed=()
for _ in "${pids[@]}"; do
	p=""
	wait -n -p p || true
	[ -n "$p" ] || break
	name=${names[$p]}
	status=$(cat "$tmp/$name.status" 2>/dev/null || echo 1)
	echo
	echo "== $name: $([ "$status" = 0 ] && echo ok || echo "FAILED (status $status)") at $(since "$start")"
	cat "$tmp/$name.log"
	[ "$status" = 0 ] || failed+=("$name")
done
pids=()

echo
if [ ${#failed[@]} -gt 0 ]; then
	# What failed, once more at the very end: a CI page that shows only
	# the tail of a long log (a timeout's goroutine dump) still names the
	# tests that failed and the ones a timeout found running.
	for name in "${failed[@]}"; do
		echo "== $name: what failed"
		grep -E -A8 '^panic: test timed out|^running tests:' "$tmp/$name.log" | head -40 || true
		grep -E '^\s*--- FAIL|^FAIL|^\s+\S+_test\.go:[0-9]+:' "$tmp/$name.log" | head -60 || true
	done
	printf 'FAILED: %s\n' "${failed[@]}"
	echo "in $(since "$start")"
	exit 1
fi
echo "all passed in $(since "$start")"
