#!/usr/bin/env bash
# A soak of the daemon (scripts/soak/main.go says what runs): MQTT ingest at
# 50 messages a second through a real mosquitto, 20 MCP sessions, an SSE
# client that never reads, broker restarts, a SIGKILL, a SIGTERM and two
# full disks (the second after the WAL was checkpointed to nothing). Prints
# readings published/stored/lost/duplicated, integrity_check, RSS,
# goroutines, CPU and log lines. Loopback only; stops by itself.
# Usage: scripts/soak.sh [DURATION]   (default 20m; the disk-full episodes need root)
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
	apt-get update -qq && apt-get install -y -qq mosquitto >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$tmp/climated" ./cmd/climated
go build -o "$tmp/soak" ./scripts/soak
mosq=$(command -v mosquitto || echo /usr/sbin/mosquitto)
"$tmp/soak" -bin "$tmp/climated" -mosquitto "$mosq" -duration "${1:-20m}" -work "$tmp/work"
