#!/usr/bin/env bash
# The appliance's budgets, measured: the stripped linux/arm64 binary under
# 20 MB, resident memory of the demo hub after start-up under 30 MB, and
# start-up to serving under 300 ms (first start, which fills a day of demo
# history, and a restart). Exits 1 when a budget is exceeded.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0

CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -trimpath -ldflags "-s -w" -o "$tmp/climated-arm64" ./cmd/climated
size=$(stat -c %s "$tmp/climated-arm64")
awk -v b="$size" 'BEGIN {printf "budget: linux/arm64 binary %.1f MB (limit 20 MB)\n", b / 1048576}'
[ "$size" -lt $((20 * 1048576)) ] || { echo "budget exceeded: binary size"; fail=1; }

# The binary that ships is static (CGO_ENABLED=0, scripts/build.sh); with
# cgo on (gcc installed) go build would link libc dynamically.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/climated" ./cmd/climated
for run in first restart; do
	"$tmp/climated" serve --listen 127.0.0.1:0 --db "$tmp/climated.db" 2>"$tmp/log-$run" &
	pid=$!
	line=""
	for _ in $(seq 300); do
		line=$(grep -m1 'msg="serving MCP"' "$tmp/log-$run" || true)
		[ -n "$line" ] && break
		sleep 0.05
	done
	[ -n "$line" ] || { cat "$tmp/log-$run"; echo "the hub did not start"; exit 1; }
	startup=$(echo "$line" | grep -o 'startup=[^ ]*' | cut -d= -f2)
	ms=$(echo "$startup" | awk '/ms$/ {sub("ms",""); print $1; next} /µs$/ {print 0; next} /s$/ {sub("s",""); print $1*1000}')
	sleep 1
	rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
	awk -v run="$run" -v s="$startup" -v kb="$rss" 'BEGIN {printf "budget: %s start-up to serving %s (limit 300 ms); resident memory %.1f MB after start-up (limit 30 MB)\n", run, s, kb / 1024}'
	awk -v ms="$ms" 'BEGIN {exit !(ms < 300)}' || { echo "budget exceeded: start-up ($run)"; fail=1; }
	[ "$rss" -lt $((30 * 1024)) ] || { echo "budget exceeded: memory ($run)"; fail=1; }
	kill -TERM $pid
	wait $pid || true
	pid=""
done
exit $fail
