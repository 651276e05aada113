#!/usr/bin/env bash
# The size of the project's functions (tests left out): none longer than 60
# lines (scripts/funlen) nor of a cognitive complexity above 20 (gocognit,
# github.com/uudashr/gocognit, fetched by the go command). Prints the
# offenders and exits 1 when there is one; scripts/test.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=(cmd sensors mqtt history mcp scripts)
status=0
echo "functions over 60 lines:"
go run ./scripts/funlen -max 60 "${dirs[@]}" || status=1
echo "functions over cognitive complexity 20:"
over=$(go run github.com/uudashr/gocognit/cmd/gocognit@v1.3.0 -over 20 "${dirs[@]}" 2>/dev/null | grep -v '_test\.go:' | sort -u || true)
if [ -n "$over" ]; then
	echo "$over"
	status=1
fi
[ "$status" = 0 ] && echo "none"
exit "$status"
