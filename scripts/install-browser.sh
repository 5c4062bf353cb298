#!/bin/sh
# Installs Debian's chromium and chromium-driver for the browser tests, unless they are there.
# Where they cannot be installed (no apt-get, no root or sudo, no network), it says so and the
# browser tests are skipped with that reason; the rest of the suite still runs.
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
warn() {
    echo "install-browser: $1; the browser tests will be skipped (install chromium and chromium-driver to run them)" >&2
    exit 0
}
command -v apt-get >/dev/null 2>&1 || warn "no apt-get here"
SUDO=""
if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || warn "installing needs root or password-less sudo"
    SUDO="sudo -n"
fi
echo "install-browser: installing chromium and chromium-driver for the browser tests"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || warn "apt-get update failed"
$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null || warn "apt-get install failed"
