#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls exactly this).
# It installs what the tests need on a fresh Debian 12 machine with Go.
set -euo pipefail
cd "$(dirname "$0")/.."

# Tests that need what this script installs (Node from npm, the broker)
# skip on a bare checkout, but not here: CI=true makes them required.
export CI=true

# go test -race needs cgo, hence a C compiler.
if ! command -v gcc >/dev/null; then
	echo "== installing gcc (for go test -race)"
	apt-get update -qq && apt-get install -y -qq gcc >/dev/null
fi

# The MQTT tests run Debian's mosquitto as a broker process of their own.
if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
	echo "== installing mosquitto (for the MQTT broker tests)"
	apt-get update -qq && apt-get install -y -qq mosquitto >/dev/null
fi

echo "== MCP clients from npm (TypeScript SDK, conformance suite, Node 22)"
scripts/mcp-clients/install.sh

echo "== gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "not gofmt-formatted:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== static builds (CGO_ENABLED=0): linux/amd64, linux/arm64"
for arch in amd64 arm64; do
	CGO_ENABLED=0 GOOS=linux GOARCH=$arch go build -trimpath -o /dev/null ./cmd/climated
done

echo "== release binaries under QEMU: arm64, armv7, armv6 (scripts/qemu-test.sh)"
scripts/qemu-test.sh
echo "== install onto fake hubs over stand-in ssh (scripts/install-test.sh)"
scripts/install-test.sh
echo "== Debian packages: contents, lintian, unit, maintainer scripts (scripts/deb-test.sh)"
scripts/deb-test.sh

echo "== MCP conformance suite"
scripts/conformance.sh

echo "== go test -race"
go test -race -count=1 -timeout 20m ./...
