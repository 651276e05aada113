#!/usr/bin/env bash
# Runs the ARM release binaries under QEMU user-mode emulation, each on the
# CPU of the Raspberry Pi it is meant for: `climated version`, then a demo
# hub on loopback that must answer an MCP initialize and a get_climate call
# over Streamable HTTP, and exit 0 on SIGTERM.
#
# Usage: scripts/qemu-test.sh [DIST_DIR]
#   Without DIST_DIR, builds arm64, armv6 and armv7 (scripts/build.sh) into
#   a temporary directory, stamped with VERSION (default: git describe).
#   With DIST_DIR, tests its climated-linux-{arm64,armv6,armv7}; VERSION, if
#   set, is the version they must carry.
#   QEMU_TEST_DEADLINE  seconds a hub may take to serve, or to stop (60)
#
# qemu-user-static is installed with apt-get when missing. Everything
# listens on 127.0.0.1 only, on a port the kernel picks.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."

deadline=${QEMU_TEST_DEADLINE:-60}

if ! command -v qemu-aarch64-static >/dev/null || ! command -v qemu-arm-static >/dev/null; then
	echo "qemu-test: installing qemu-user-static"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >/dev/null
fi

tmp=$(mktemp -d)
pid=""
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

if [ $# -gt 0 ]; then
	dist=$1
	version=${VERSION:-}
else
	version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
	dist=$tmp/dist
	DIST=$dist TARGETS="arm64 armv6 armv7" scripts/build.sh "$version" >/dev/null
fi

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# mcp_post URL SESSION BODY: one JSON-RPC POST as a Streamable HTTP client
# sends it; headers to $tmp/headers, body to stdout.
mcp_post() {
	local session=()
	[ -n "$2" ] && session=(-H "Mcp-Session-Id: $2" -H "MCP-Protocol-Version: 2025-06-18")
	curl -sS --max-time 30 -D "$tmp/headers" -X POST "$1" \
		-H 'Content-Type: application/json' \
		-H 'Accept: application/json, text/event-stream' \
		"${session[@]}" -d "$3"
}

# check_serve TARGET EMULATOR CPU: the demo hub under emulation answers
# initialize and get_climate, then stops with status 0 on SIGTERM.
check_serve() {
	local t=$1 emu=$2 cpu=$3 log=$tmp/$1.log url="" start out sid code status
	start=$(now)
	"$emu" -cpu "$cpu" "$dist/climated-linux-$t" serve --listen 127.0.0.1:0 --db "$tmp/$t/climated.db" 2>"$log" &
	pid=$!
	while [ -z "$url" ]; do
		if ! kill -0 "$pid" 2>/dev/null; then
			cat "$log"; echo "$t: serve exited before serving"; return 1
		fi
		if [ "$(elapsed "$start" | cut -d. -f1)" -ge "$deadline" ]; then
			cat "$log"; echo "$t: not serving after ${deadline}s"; return 1
		fi
		sleep 0.2
		url=$(grep -o 'streamable_http=http://127\.0\.0\.1:[0-9]*/mcp' "$log" | head -1 | cut -d= -f2 || true)
	done
	serving=$(elapsed "$start")

	out=$(mcp_post "$url" "" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"qemu-test","version":"1"}}}')
	sid=$(grep -i '^mcp-session-id:' "$tmp/headers" | head -1 | cut -d: -f2 | tr -d ' \r')
	if [ -z "$sid" ] || ! grep -q '"protocolVersion":"2025-06-18"' <<<"$out"; then
		echo "$out"; echo "$t: initialize failed (session \"$sid\")"; return 1
	fi
	mcp_post "$url" "$sid" '{"jsonrpc":"2.0","method":"notifications/initialized"}' >/dev/null || true
	code=$(head -1 "$tmp/headers" | awk '{print $2}')
	if [ "$code" != 202 ]; then
		echo "$t: notifications/initialized answered $code, want 202"; return 1
	fi
	out=$(mcp_post "$url" "$sid" '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}')
	if ! grep -q '"id":2,"result":' <<<"$out" || grep -q '"isError":true' <<<"$out" ||
		! grep -q Indoor <<<"$out" || ! grep -q Temperature <<<"$out"; then
		echo "$out" | head -c 2000; echo; echo "$t: get_climate did not answer with Indoor and Temperature"; return 1
	fi
	climate=$(elapsed "$start")

	kill -TERM "$pid"
	start=$(now)
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$(elapsed "$start" | cut -d. -f1)" -ge "$deadline" ]; then
			tail -5 "$log"; echo "$t: still running ${deadline}s after SIGTERM"; return 1
		fi
		sleep 0.2
	done
	status=0
	wait "$pid" || status=$?
	pid=""
	stopped=$(elapsed "$start")
	if [ "$status" -ne 0 ]; then
		tail -5 "$log"; echo "$t: exit status $status after SIGTERM, want 0"; return 1
	fi
}

# check TARGET EMULATOR CPU GOARCH GOARM
check() {
	local t=$1 emu=$2 cpu=$3 goarch=$4 goarm=$5 bin=$dist/climated-linux-$1 out start
	[ -f "$bin" ] || { echo "$t: $bin missing"; return 1; }
	# The architecture the toolchain recorded, GOARM included.
	out=$(go version -m "$bin")
	grep -q "GOARCH=$goarch\$" <<<"$out" || { echo "$t: built for $(grep -o 'GOARCH=.*' <<<"$out"), want $goarch"; return 1; }
	if [ -n "$goarm" ]; then
		grep -q "GOARM=$goarm\$" <<<"$out" || { echo "$t: not built with GOARM=$goarm"; return 1; }
	fi
	start=$(now)
	out=$(timeout "$deadline" "$emu" -cpu "$cpu" "$bin" version) || { echo "$t: climated version failed"; return 1; }
	version_time=$(elapsed "$start")
	grep -q " linux/$goarch\$" <<<"$out" || { echo "$out"; echo "$t: version does not name linux/$goarch"; return 1; }
	if [ -n "$version" ]; then
		grep -q "^climated $version commit [0-9a-f]* built [0-9TZ:-]* " <<<"$out" ||
			{ echo "$out"; echo "$t: version does not carry $version, its commit and date"; return 1; }
	else
		grep -q "^climated [^ ]* commit [0-9a-f]* built [0-9TZ:-]* " <<<"$out" && ! grep -q '^climated dev ' <<<"$out" ||
			{ echo "$out"; echo "$t: no version, commit and date stamped"; return 1; }
	fi
	mkdir -p "$tmp/$t"
	check_serve "$t" "$emu" "$cpu" || return 1
	echo "qemu $t ($cpu): ok: $out; version ${version_time}s, serving after ${serving}s, get_climate answered at ${climate}s, exit 0 ${stopped}s after SIGTERM"
}

failed=0
# Pi 3 / Zero 2 W (64-bit), Pi 2 (ARMv7), Pi 1 / Zero (ARMv6, ARM1176).
check arm64 qemu-aarch64-static cortex-a53 arm64 "" || { echo "qemu arm64: FAILED"; failed=$((failed + 1)); }
check armv7 qemu-arm-static cortex-a7 arm 7 || { echo "qemu armv7: FAILED"; failed=$((failed + 1)); }
check armv6 qemu-arm-static arm1176 arm 6 || { echo "qemu armv6: FAILED"; failed=$((failed + 1)); }

# The ARMv7 build must not run on a Pi Zero's ARM1176: otherwise the armv6
# run above would prove nothing about GOARM=6. (The status is taken inside
# a subshell so that bash's "Illegal instruction" notice stays off the
# output; no core file from qemu.)
if [ -f "$dist/climated-linux-armv7" ]; then
	status=$( (ulimit -c 0; timeout "$deadline" qemu-arm-static -cpu arm1176 "$dist/climated-linux-armv7" version >/dev/null 2>&1; echo $?) 2>/dev/null)
	if [ "$status" -eq 0 ]; then
		echo "qemu armv7 on arm1176: ran, but an ARMv7 binary should not run on ARMv6: FAILED"
		failed=$((failed + 1))
	else
		echo "qemu armv7 on arm1176: refused (status $status), as on a Pi Zero: the armv6 build is the one for it: ok"
	fi
fi

if [ "$failed" -ne 0 ]; then
	echo "qemu-test: $failed failed"
	exit 1
fi
echo "qemu-test: arm64, armv7, armv6 ok"
