#!/usr/bin/env bash
# Static release binaries for the hubs climated runs on, with the version,
# commit and build date stamped in (climated version prints them), and
# their SHA-256 sums.
#
# Usage: scripts/build.sh [VERSION]
#   VERSION      default: git describe --tags --always --dirty
#   DIST=DIR     where the binaries go (default dist/)
#   TARGETS=...  a subset of: arm64 armv6 armv7 amd64 (default all four)
#   SOURCE_DATE_EPOCH  build date to stamp instead of now (reproducible builds)
#
# Writes DIR/climated-linux-<target> and DIR/SHA256SUMS (of the binaries
# built by this run) and prints each size.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
else
	date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fi
dist=${DIST:-dist}
targets=${TARGETS:-arm64 armv6 armv7 amd64}
mkdir -p "$dist"

ldflags="-s -w -X main.version=$version -X main.commit=$commit -X main.date=$date"
built=()
for t in $targets; do
	goarm=""
	case $t in
	arm64 | amd64) goarch=$t ;;
	armv6) goarch=arm goarm=6 ;;
	armv7) goarch=arm goarm=7 ;;
	*) echo "build: unknown target $t (want arm64, armv6, armv7 or amd64)" >&2; exit 2 ;;
	esac
	out="$dist/climated-linux-$t"
	# GOARM is set only for arm: an empty GOARM in the environment is an
	# error for the go command.
	env CGO_ENABLED=0 GOOS=linux GOARCH="$goarch" ${goarm:+GOARM=$goarm} \
		go build -trimpath -ldflags "$ldflags" -o "$out.tmp" ./cmd/climated
	mv "$out.tmp" "$out"
	built+=("climated-linux-$t")
done

(cd "$dist" && sha256sum "${built[@]}" >SHA256SUMS)
echo "climated $version (commit $commit, built $date) in $dist/:"
for b in "${built[@]}"; do
	size=$(stat -c %s "$dist/$b")
	awk -v b="$b" -v s="$size" 'BEGIN { printf "  %-24s %9d bytes  %5.1f MiB\n", b, s, s / 1048576 }'
done
echo "  SHA256SUMS"
