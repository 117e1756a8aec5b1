#!/usr/bin/env bash
# make bench: install the peer (cucumber-js 13 on Node 22, tsx, playwright-core)
# from the lock file when needed, then measure.
set -euo pipefail
cd "$(dirname "$0")/.."
peer=bench/peer
if [ ! -f $peer/node_modules/.installed ] || [ $peer/package-lock.json -nt $peer/node_modules/.installed ]; then
	(cd $peer && npm ci --no-audit --no-fund --loglevel=error)
	touch $peer/node_modules/.installed
fi
go run ./bench "$@"
