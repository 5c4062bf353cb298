#!/bin/sh
# Installs Debian's chromium and chromium-driver for the browser tests, unless they are there.
set -e
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: no apt-get here; install chromium and chromedriver yourself, or the browser tests are skipped" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
echo "install-browser: installing chromium and chromium-driver for the browser tests"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
