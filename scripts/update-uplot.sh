#!/usr/bin/env bash
# Vendors uPlot (MIT, https://github.com/leeoniya/uPlot) into the
# files embedded for the dashboard and the MCP Apps views (internal/uplot): its built IIFE bundle and stylesheet, its
# licence and the version, from the npm package.
#
# Usage: scripts/update-uplot.sh VERSION     e.g. scripts/update-uplot.sh 1.6.32
# Needs npm (the registry) and tar. Then run the dashboard's browser test:
#   go test -run TestBrowser ./cmd/climated/internal/dash/
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/update-uplot.sh VERSION (see npm view uplot versions)}
dest=internal/uplot/dist
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "uplot@$version" >/dev/null)
tar -xzf "$tmp"/uplot-"$version".tgz -C "$tmp"
got=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$tmp/package/package.json" | head -1)
[ "$got" = "$version" ] || { echo "npm gave uplot $got, not $version" >&2; exit 1; }
mkdir -p "$dest"
cp "$tmp/package/dist/uPlot.iife.min.js" "$tmp/package/dist/uPlot.min.css" "$tmp/package/LICENSE" "$dest/"
echo "$version" >"$dest/VERSION"
echo "uPlot $version in $dest: $(wc -c <"$dest/uPlot.iife.min.js") bytes of script, $(gzip -9c "$dest/uPlot.iife.min.js" | wc -c) gzipped"
