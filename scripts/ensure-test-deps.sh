#!/usr/bin/env bash
# What `npm test` needs beyond npm packages, without any download but Debian's: Chromium for the
# browser tests (scripts/ensure-chromium.sh) and PostgreSQL's server binaries for `npm run test:pg`,
# which starts a throwaway cluster of its own (scripts/pg-cluster.sh). Installs with apt-get when
# missing and running as root; otherwise says what to install. Prints what it did.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/ensure-chromium.sh

if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "ensure-test-deps: found PostgreSQL ($(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || command -v initdb))"
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-test-deps: no PostgreSQL server binaries (initdb); install Debian's postgresql (sudo apt-get install -y postgresql)" >&2
  exit 1
fi
echo "ensure-test-deps: installing Debian's postgresql with apt-get"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
echo "ensure-test-deps: installed PostgreSQL ($(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1))"
