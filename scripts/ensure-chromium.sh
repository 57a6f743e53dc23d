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

# Chinese text in the screenshots needs a CJK font; install one alongside when we can.
ensure_cjk_font() {
  if command -v fc-list >/dev/null 2>&1 && fc-list :lang=zh | grep -q .; then return 0; fi
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: installing fonts-noto-cjk for Chinese text"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null || echo "ensure-chromium: fonts-noto-cjk not installed (screenshots may show boxes for Chinese)" >&2
  fi
}

if path="$(find_chromium)"; then
  echo "ensure-chromium: found $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
  ensure_cjk_font
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
ensure_cjk_font
path="$(find_chromium)"
echo "ensure-chromium: installed $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
