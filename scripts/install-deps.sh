#!/usr/bin/env bash
# Installs the system packages RiderKit needs when they are missing (Debian/Ubuntu).
# Safe to run again: it only calls apt-get when something is missing.
set -euo pipefail

packages=(
  pkg-config        # finds C libraries for SwiftPM system-library targets
  libsqlite3-dev    # SQLite user cache (GRDB builds on the system SQLite)
  libsecret-1-dev   # Secret Service token vault (libsecret, through a system-library target)
  gnome-keyring     # a real Secret Service daemon for the vault tests (run headless by with-keyring.sh)
  keepassxc         # the second Secret Service provider the vault tests run against (with-keepassxc.sh)
  libsecret-tools   # secret-tool: the interop tests check what other programs see in the keyring
  dbus              # dbus-run-session: a private session bus for the keyring tests
  python3-gi        # GLib/Gio for /usr/bin/python3: the stub Secret Service provider (with-stub-keyring.sh)
  curl              # the demo's health check
  openssl           # makes the client key pairs of the private_key_jwt tests
  tmux              # a real terminal for the tests of what rider does on a TTY (password prompts)
  chromium          # a real browser for the tests of the reference server's web pages (headless)
  chromium-driver   # chromedriver: the tests drive that browser through WebDriver
  glewlwyd          # an independent provider that checks DPoP proofs (scripts/dpop-provider.sh)
  dbconfig-no-thanks  # glewlwyd without a database server of its own: the tests give it SQLite
  python3-venv      # python3 -m venv: the PyPI virtualenvs of the peer provider and the MCP server (scripts/mcp-server.sh)
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "install-deps: swift is at /opt/swift/usr/bin but not on PATH; add it: export PATH=/opt/swift/usr/bin:\$PATH" >&2
  else
    echo "install-deps: Swift 6.1 or later is required (https://www.swift.org/install/linux/)" >&2
  fi
  exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: run as root or install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# glewlwyd's package would otherwise configure a database and a system service of its own; the
# tests start theirs on loopback with a configuration they write.
echo "glewlwyd glewlwyd/config_type select No configuration" | $sudo debconf-set-selections
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [ -d /run/systemd/system ]; then $sudo systemctl disable --now glewlwyd >/dev/null 2>&1 || true; fi
