#!/usr/bin/env bash
# What one upstream change to the go-sdk would save on every MCP message:
# its internal/json.Unmarshal decodes a []byte it already holds through
# json.NewDecoder(bytes.NewReader(data)), and segmentio's Decoder allocates
# a 32 KiB read buffer for each message (eight per tools/call). Parsing the
# bytes in place (json.Parse with the same flag) allocates nothing of the
# kind. This script measures BenchmarkGetClimate's Streamable HTTP call
# against the SDK as released and against a copy in a temporary folder
# with that one function changed (go test -modfile, so go.mod is not
# touched). The project itself never patches the SDK.
#
# scripts/sdkjson.sh [COUNT]   (default 5 runs of each, printed side by side)
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT

sdk=$(go list -m -f '{{.Dir}}' github.com/modelcontextprotocol/go-sdk)
cp -r "$sdk" "$tmp/sdk"
chmod -R u+w "$tmp/sdk"
file=$tmp/sdk/internal/json/json.go
grep -q 'return NewDecoder(bytes.NewReader(data)).Decode(v)' "$file" || {
	echo "the SDK's internal/json.Unmarshal has changed: look again at $file" >&2
	exit 1
}
sed -i 's|return NewDecoder(bytes.NewReader(data)).Decode(v)|_, err := json.Parse(data, v, json.DontMatchCaseInsensitiveStructFields)\n\treturn err|; /^\t"bytes"$/d' "$file"
(cd "$tmp/sdk" && go test ./internal/json/ >/dev/null) || {
	echo "the changed SDK fails its own internal/json tests" >&2
	exit 1
}

cp go.mod "$tmp/go.mod"
cp go.sum "$tmp/go.sum"
go mod edit -modfile "$tmp/go.mod" -replace "github.com/modelcontextprotocol/go-sdk=$tmp/sdk"

bench=(-run '^$' -bench 'BenchmarkGetClimate$/streamable-http$' -benchmem -benchtime 2000x ./mcp/)
for i in $(seq "$count"); do
	echo "released: $(go test "${bench[@]}" | grep '^Benchmark')"
	echo "changed:  $(go test -modfile "$tmp/go.mod" "${bench[@]}" | grep '^Benchmark')"
done
