#!/usr/bin/env bash
# The size of the project's files and functions: no Go file over 400 lines
# (tests included), no function (tests left out) longer than 60
# lines (scripts/funlen) nor of a cognitive complexity above 20 (gocognit,
# github.com/uudashr/gocognit, installed by the go command). Prints the
# offenders and exits 1 when there is one, and when either check cannot
# run (gocognit cannot be fetched or fails): a check that did not run has
# not passed. scripts/test.sh runs it.
# GOCOGNIT names the gocognit to install (to try the failure path:
# GOCOGNIT=github.com/uudashr/gocognit/cmd/gocognit@v0.0.0 scripts/complexity.sh).
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=(cmd sensors mqtt history mcp scripts)
gocognit=${GOCOGNIT:-github.com/uudashr/gocognit/cmd/gocognit@v1.3.0}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
status=0
echo "files over 400 lines:"
long=$(find "${dirs[@]}" internal -name '*.go' -not -path '*/node_modules/*' -not -path '*/testdata/*' -exec wc -l {} + | awk '$2 != "total" && $1 > 400' || true)
if [ -n "$long" ]; then
	echo "$long"
	status=1
fi
echo "functions over 60 lines:"
go run ./scripts/funlen -max 60 "${dirs[@]}" || status=1
echo "functions over cognitive complexity 20:"
if ! GOBIN=$bin go install "$gocognit"; then
	echo "cannot install $gocognit: the complexity check did not run" >&2
	exit 1
fi
set +e
out=$("$bin/gocognit" -over 20 "${dirs[@]}" 2>"$bin/stderr")
rc=$?
set -e
# gocognit exits 1 when it lists functions over the limit (tests among
# them); any other status, or 1 with nothing listed, is a failure to run.
if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && [ -z "$out" ]; }; then
	echo "gocognit failed (status $rc): the complexity check did not run" >&2
	cat "$bin/stderr" >&2
	exit 1
fi
over=$(printf '%s\n' "$out" | grep -v '_test\.go:' | grep . | sort -u || true)
if [ -n "$over" ]; then
	echo "$over"
	status=1
fi
[ "$status" = 0 ] && echo "none"
exit "$status"
