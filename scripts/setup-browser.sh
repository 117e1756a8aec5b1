#!/bin/sh
# setup-browser.sh: make sure this machine can run ferridriver's browser
# tests. Idempotent and quick when everything is already there.
#
#   scripts/setup-browser.sh [path/to/ferridriver]     (or BIN=... in the env)
#
# 1. A Chrome/Chromium: if none is found and we are root on Debian/Ubuntu,
#    install Debian's chromium with apt-get (Playwright's own browser
#    download needs a CDN that closed networks do not reach). Then, as root
#    on Debian where the package exists, its headless shell
#    (chromium-headless-shell), which headless runs use when it is there,
#    as Playwright does: optional, so failing to get it only warns.
# 2. Node.js (runs the Playwright driver): apt-get install nodejs likewise.
# 3. ffmpeg, which Playwright's video recording runs (recordVideo, [browser]
#    video): Debian's ffmpeg with apt-get likewise, if none is on PATH
#    (optional: failing to get it only warns; `$BIN install` then puts the
#    wrapper where the driver looks for Playwright's own ffmpeg build).
# 4. The Playwright driver (npm playwright-core) via `$BIN install`, which
#    downloads it from the npm registry into the cache only if missing and
#    prints what it found.
set -eu

BIN=${1:-${BIN:-}}

say() { printf 'setup-browser: %s\n' "$*" >&2; }

have_browser() {
	for n in chromium chromium-browser google-chrome google-chrome-stable chrome; do
		command -v "$n" >/dev/null 2>&1 && return 0
	done
	for p in /usr/bin/chromium /usr/bin/google-chrome /opt/google/chrome/chrome /snap/bin/chromium \
		"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
		"/Applications/Chromium.app/Contents/MacOS/Chromium"; do
		[ -x "$p" ] && return 0
	done
	pw=${PLAYWRIGHT_BROWSERS_PATH:-${XDG_CACHE_HOME:-$HOME/.cache}/ms-playwright}
	for p in "$pw"/chromium-*/chrome-linux/chrome "$pw"/chromium_headless_shell-*/chrome-linux/headless_shell; do
		[ -x "$p" ] && return 0
	done
	return 1
}

have_shell() {
	[ -x /usr/lib/chromium/chromium-headless-shell ] && return 0
	for n in chromium-headless-shell chrome-headless-shell; do
		command -v "$n" >/dev/null 2>&1 && return 0
	done
	pw=${PLAYWRIGHT_BROWSERS_PATH:-${XDG_CACHE_HOME:-$HOME/.cache}/ms-playwright}
	for p in "$pw"/chromium_headless_shell-*/chrome-linux/headless_shell; do
		[ -x "$p" ] && return 0
	done
	return 1
}

can_apt() {
	[ "$(id -u)" = 0 ] && [ -f /etc/debian_version ] && command -v apt-get >/dev/null 2>&1
}

APT_UPDATED=
apt_install() {
	if [ -z "$APT_UPDATED" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
		APT_UPDATED=1
	fi
	say "apt-get install -y $*"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! have_browser; then
	if can_apt; then
		apt_install chromium
	else
		say "no Chrome/Chromium found. Install one: 'apt-get install -y chromium' (Debian/Ubuntu, as root)"
		say "or 'npx playwright@1.52.0 install chromium', or set [browser] executablePath"
		exit 1
	fi
	if ! have_browser; then
		say "chromium was installed but no usable executable was found"
		exit 1
	fi
fi

# apt-cache reads the local package lists only: quick, and false on a
# machine whose lists were never fetched and that needed nothing else.
if ! have_shell && can_apt && apt-cache show chromium-headless-shell >/dev/null 2>&1; then
	apt_install chromium-headless-shell ||
		say "could not install chromium-headless-shell; headless runs use the full browser"
fi

if [ -z "${FERRIDRIVER_NODE:-}" ] && ! command -v node >/dev/null 2>&1; then
	if can_apt; then
		apt_install nodejs
	else
		say "node (Node.js 18+) is not on PATH: install it, or set FERRIDRIVER_NODE"
		exit 1
	fi
fi

if ! command -v ffmpeg >/dev/null 2>&1; then
	if can_apt; then
		apt_install ffmpeg || say "could not install ffmpeg; video recording will not work"
	else
		say "no ffmpeg on PATH: video recording (recordVideo) needs it (Debian/Ubuntu: apt-get install -y ffmpeg)"
	fi
fi

if [ -z "$BIN" ]; then
	say "usage: $0 path/to/ferridriver (or BIN=...): the binary installs the Playwright driver"
	exit 2
fi
if [ ! -x "$BIN" ]; then
	say "$BIN is not an executable (build it first: go build -o $BIN ./cmd/ferridriver)"
	exit 2
fi
exec "$BIN" install
