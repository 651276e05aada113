#!/usr/bin/env bash
# Resident memory and call latency of a demo hub under concurrent sessions.
# Usage: scripts/memory.sh [SESSIONS] [CALLS_PER_SESSION] [AFTER]
# AFTER (e.g. 60s) reports the memory every 15 s once the load has ended.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-50}
calls=${2:-20}
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT

go build -o "$tmp/climated" ./cmd/climated
go build -o "$tmp/loadgen" ./scripts/loadgen
"$tmp/climated" serve --listen 127.0.0.1:0 --db "$tmp/climated.db" 2>"$tmp/log" &
pid=$!
for _ in $(seq 100); do
	url=$(grep -o 'streamable_http=[^ ]*' "$tmp/log" | head -1 | cut -d= -f2 || true)
	[ -n "$url" ] && break
	sleep 0.2
done
[ -n "$url" ] || { cat "$tmp/log"; echo "hub did not start"; exit 1; }
echo "hub pid $pid at $url"
"$tmp/loadgen" -url "$url" -sessions "$sessions" -calls "$calls" -pid "$pid" -after "${3:-0s}"
