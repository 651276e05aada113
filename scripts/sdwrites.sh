#!/usr/bin/env bash
# What the hub writes to its storage per reading, all in: /proc/PID/io
# write_bytes of the static hub over DURATION of a house of ZONES zones x 4
# measurements at one reading a minute each (scripts/sdwrites/main.go:
# zigbee2mqtt devices, one state a minute each, their minutes spread
# evenly, at QoS 1) through a real mosquitto. The WAL, its checkpoints,
# the hourly move of recent readings into raw and the rollups, the MQTT
# session journal and the logs are all counted: it is the process's own
# counter. Counting starts 10 s after the hub serves (its first start's
# writes are not the steady state) and ends once the last reading
# published has had its commit interval to reach the disk.
#
# write_bytes counts pages when they are first dirtied after a write-back
# (4 KiB each here), so it is what the page cache hands the card, not what
# the program asks to write.
#
# The hub moves recent readings into raw and the rollups once the oldest
# is six hours old. So that a run holds one such move, the database starts
# with the house's past readings, as far back as puts the move in the
# middle of the run, and two days before it already moved, as a running
# hub's tables hold a history (SEED=0: an empty database, no move). The
# minutes the move fell in are those over twice the usual; their bytes beyond the
# usual are the move's, shared among the readings it moved, once each:
# bytes/reading all in is the rest per reading published plus the move's
# per reading moved.
#
# Usage: scripts/sdwrites.sh [DURATION]     (default 30m; 5m for iteration)
#   ZONES=20             devices (one zone, four measurements each)
#   QOS=1                the devices' QoS (0: no acknowledgement path)
#   COMMIT=…             commit_interval to set (default: the hub's)
#   SEED=1               start with the past readings (0: empty)
#   SDWRITES_DIR=DIR     where the database goes (default: a directory in
#                        $TMPDIR; it must not be tmpfs, which counts nothing)
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-30m}
zones=${ZONES:-20}
qos=${QOS:-1}
mosq=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$mosq" ] || { echo "sdwrites: mosquitto is needed (apt-get install -y mosquitto)" >&2; exit 2; }

tmp=$(mktemp -d "${SDWRITES_DIR:-${TMPDIR:-/tmp}}/sdwrites.XXXXXX")
pid="" bpid="" spid=""
# cleanup stops what this script started (the hub, the sampler, the
# broker), whichever of them runs, however the script ends: each step may
# fail (a hub that never started) without skipping the next, as set -e
# would have a failed kill do inside the trap.
cleanup() {
	set +e
	for p in $pid $spid $bpid; do
		kill "$p" 2>/dev/null
	done
	for p in $pid $spid $bpid; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$(stat -f -c %T "$tmp")" = tmpfs ]; then
	echo "sdwrites: $tmp is on tmpfs, whose writes are not counted: set SDWRITES_DIR to a disk" >&2
	exit 2
fi

CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/climated" ./cmd/climated
go build -o "$tmp/house" ./scripts/sdwrites

seeded=0
if [ "${SEED:-1}" != 0 ]; then
	seeded=$("$tmp/house" -seed "$tmp/climated.db" -zones "$zones" -duration "$duration")
	inraw=$(sqlite3 "$tmp/climated.db" "SELECT count(*) FROM raw")
fi

port=$((20000 + RANDOM % 20000))
"$mosq" -p "$port" >"$tmp/mosquitto.log" 2>&1 &
bpid=$!
sleep 0.5
kill -0 "$bpid" 2>/dev/null || { cat "$tmp/mosquitto.log" >&2; echo "sdwrites: mosquitto did not start" >&2; exit 1; }

cat >"$tmp/climated.yaml" <<EOF
listen: 127.0.0.1:0
database: $tmp/climated.db
demo: {enabled: false}
mqtt:
  broker: tcp://127.0.0.1:$port
  subscriptions:
    - {topic: "zigbee2mqtt/#", format: zigbee2mqtt, auto_zone: true}
EOF
if [ -n "${COMMIT:-}" ]; then
	echo "commit_interval: $COMMIT" >>"$tmp/climated.yaml"
fi

"$tmp/climated" serve --config "$tmp/climated.yaml" 2>"$tmp/climated.log" &
pid=$!
for _ in $(seq 200); do
	grep -q 'msg="serving MCP"' "$tmp/climated.log" && break
	sleep 0.05
done
grep -q 'msg="serving MCP"' "$tmp/climated.log" || { cat "$tmp/climated.log"; echo "sdwrites: the hub did not start" >&2; exit 1; }
bound=$(grep -o -m1 "commit_interval=[^ ]*" "$tmp/climated.log" | cut -d= -f2 || true)
sleep 10

written() { awk -v k="$1" '$1 == k":" {print $2}' /proc/$pid/io; }
cpu() { awk '{print $14 + $15}' /proc/$pid/stat; }
w0=$(written write_bytes) c0=$(written cancelled_write_bytes) t0=$(date +%s) cpu0=$(cpu)
# A sample a minute: the hour's move into raw and the rollups shows as one
# minute's spike.
(
	prev=$w0
	while sleep 60; do
		w=$(written write_bytes) || exit 0
		echo "$(date +%H:%M) $((w - prev))"
		prev=$w
	done
) >"$tmp/minutes" &
spid=$!

messages=$("$tmp/house" -broker "tcp://127.0.0.1:$port" -zones "$zones" -duration "$duration" -qos "$qos")
# The last reading published waits at most the commit interval in memory.
wait_s=$(awk -v b="${bound:-1s}" 'BEGIN { n = 0
	if (match(b, /[0-9.]+h/)) n += 3600 * substr(b, RSTART, RLENGTH - 1)
	if (match(b, /[0-9.]+m[^s]/) || match(b, /[0-9.]+m$/)) n += 60 * (substr(b, RSTART, RLENGTH) + 0)
	if (match(b, /[0-9.]+s$/) && substr(b, RSTART - 1, 1) != "m") n += substr(b, RSTART, RLENGTH - 1)
	print int(n) + 3 }')
sleep "$wait_s"
w1=$(written write_bytes) c1=$(written cancelled_write_bytes) t1=$(date +%s) cpu1=$(cpu)
kill "$spid" 2>/dev/null || true
spid=""
kill -TERM "$pid"
wait "$pid" || true
pid=""

readings=$((messages * 4))
stored=$(sqlite3 "$tmp/climated.db" "SELECT (SELECT count(*) FROM raw) + (SELECT count(*) FROM recent) - $seeded")
moved=$(sqlite3 "$tmp/climated.db" "SELECT count(*) FROM raw")
moved=$((moved - ${inraw:-0}))
hz=$(getconf CLK_TCK)
echo "per minute (bytes written):"
sed 's/^/  /' "$tmp/minutes"
# The usual minute: the median of those of the first third (before the
# move, which falls in the middle) that wrote anything; the move's
# minutes: over twice that.
third=$(($(wc -l <"$tmp/minutes") / 3))
usual=$(head -n "$third" "$tmp/minutes" | awk '$2 > 0 {print $2}' | sort -n | awk '{a[NR] = $1} END {print NR ? a[int((NR + 1) / 2)] : 0}')
move=$(awk -v u="$usual" '$2 > 2 * u {m += $2 - u; at = at " " $1} END {printf "%d%s\n", m, at}' "$tmp/minutes")
awk -v w=$((w1 - w0)) -v c=$((c1 - c0)) -v n="$readings" -v s="$stored" -v m="$messages" -v d=$((t1 - t0)) \
	-v cpu=$((cpu1 - cpu0)) -v hz="$hz" -v z="$zones" -v q="$qos" -v b="${bound:-?}" \
	-v mv="${move%% *}" -v at="${move#* }" -v moved="$moved" -v seeded="$seeded" 'BEGIN {
	printf "house: %d zones x 4 measurements, one state a minute each, QoS %d; commit_interval %s\n", z, q, b
	printf "run: %d s, %d messages, %d readings published, %d stored after the stop (%d seeded before)\n", d, m, n, s, seeded
	printf "written: %d bytes (cancelled %d), %.0f bytes/reading, %.1f KB/minute\n", w, c, w / n, w / 1024 / (d / 60)
	if (moved > 0 && mv > 0) {
		printf "the move into raw and the rollups: at %s, %d bytes for %d readings moved, %.0f bytes/reading moved\n", at, mv, moved, mv / moved
		printf "without it: %.0f bytes/reading; all in: %.0f bytes/reading\n", (w - mv) / n, (w - mv) / n + mv / moved
	} else {
		printf "no move into raw and the rollups inside the run (%d readings in raw)\n", moved
	}
	printf "hub CPU: %.2f %% of a core\n", 100 * cpu / hz / d
}'
