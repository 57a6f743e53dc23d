#!/usr/bin/env bash
# Makes sure a Chromium binary exists for the browser tests (test/e2e), without a browser download:
# Debian's `chromium` package via apt-get when missing and running as root. Prints what it did.
set -euo pipefail

find_chromium() {
  for name in "${CHROMIUM_PATH:-}" chromium chromium-browser google-chrome-stable google-chrome; do
    [ -n "$name" ] || continue
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  done
  return 1
}

if path="$(find_chromium)"; then
  echo "ensure-chromium: found $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: no chromium found and not root; install it with: sudo apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: no chromium found and no apt-get; install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
path="$(find_chromium)"
echo "ensure-chromium: installed $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
