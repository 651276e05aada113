#!/usr/bin/env bash
# A year of history, measured: writes a year of a house's readings (a
# weather station in the Garden every minute: temperature, humidity, wind,
# its direction and gusts, solar radiation, UV, rain; Living and Bedroom
# every five minutes: temperature, humidity, CO2; about 4.3 million
# readings, the same for the same seed), imports them with climated import
# into a new database, serves it on loopback, and times every tool,
# resource, resource template and prompt the hub lists, at its longest
# span, and the dashboard's history requests (scripts/yearhouse/main.go
# says what). Prints the median time, the bytes and the tokens of each
# against the goal of 50 ms, and the house's write and import times.
# About 5 minutes on the 2-core development machine.
# Usage: scripts/yearhouse.sh [FLAGS]
#   -days 365     days of history, ending now (-days 3 for a quick run)
#   -runs 3       calls of each answer (the median is shown)
#   -seed 1       the weather's seed
#   -json         the results as JSON rather than a table
#   -work DIR     where the CSV and the database go (-keep keeps them)
#   -url URL      measure a running hub instead (-token its token)
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$tmp/climated" ./cmd/climated
go build -o "$tmp/yearhouse" ./scripts/yearhouse
commit=$(git rev-parse --short HEAD 2>/dev/null || true)
if [ -n "$commit" ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit (with changes)"
fi
"$tmp/yearhouse" -bin "$tmp/climated" -commit "$commit" "$@"
