#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with a real, unlocked gnome-keyring, so the
# Secret Service vault tests talk to the genuine daemon and never to the user's own keyring.
#
#   scripts/with-keyring.sh swift test --skip-build
#
# The recipe (measured on Debian 12):
# - HOME and XDG_RUNTIME_DIR point at a throwaway folder *before* dbus-run-session, so the
#   daemon creates a fresh `login` collection there;
# - `gnome-keyring-daemon --unlock --components=secrets` reads the password from stdin and
#   creates that collection unlocked (`--start --daemonize --unlock` ignores the password);
# - we wait until org.freedesktop.secrets has an owner: otherwise the bus may auto-start a
#   second daemon with no `login` collection (about 1 run in 80).
# The daemon normally exits with the session bus, but dbus-run-session ends the bus with SIGTERM,
# which a parent that blocks signals (a Swift test spawning this script) passes on blocked: both
# daemons would then outlive the session. So we end both by PID, with SIGKILL, ourselves.
# The command's exit status is this script's.
# Inside, RIDER_TEST_KEYRING=1 tells the tests that a keyring is expected to be there, and
# RIDER_TEST_KEYRING_PROVIDER=gnome-keyring which (scripts/with-keepassxc.sh sets keepassxc).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: with-keyring.sh COMMAND [ARGUMENT...]" >&2
  exit 2
fi

if [ "${RIDER_KEYRING_INNER:-}" != 1 ]; then
  for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "with-keyring: $tool is missing; run scripts/install-deps.sh" >&2
      exit 1
    }
  done
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/rider-keyring.XXXXXX")
  chmod 700 "$scratch"
  mkdir -m 700 "$scratch/home" "$scratch/runtime"
  trap 'rm -rf "$scratch"' EXIT
  status=0
  # The tests keep the caller's HOME for SwiftPM and their own temporary folders; only the
  # keyring daemon gets the throwaway one.
  RIDER_KEYRING_INNER=1 RIDER_KEYRING_HOME="$scratch/home" RIDER_OUTER_HOME="${HOME:-}" \
    XDG_RUNTIME_DIR="$scratch/runtime" \
    dbus-run-session -- "$0" "$@" || status=$?
  exit $status
fi

# Inside the private session bus.
HOME="$RIDER_KEYRING_HOME" XDG_DATA_HOME="$RIDER_KEYRING_HOME/.local/share" \
  sh -c 'printf %s "rider-test-keyring" | gnome-keyring-daemon --unlock --components=secrets >/dev/null'

owner=""
for _ in $(seq 1 100); do
  owner=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null || true)
  case "$owner" in *"boolean true"*) break ;; esac
  sleep 0.05
done
case "$owner" in
  *"boolean true"*) ;;
  *) echo "with-keyring: gnome-keyring-daemon did not take org.freedesktop.secrets on the bus" >&2; exit 1 ;;
esac

pid_of() {
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID "string:$1" 2>/dev/null | awk '/uint32/ { print $2 }'
}
daemons="$(pid_of org.freedesktop.secrets) $(pid_of org.freedesktop.DBus)"

export RIDER_TEST_KEYRING=1 RIDER_TEST_KEYRING_PROVIDER=gnome-keyring
unset RIDER_KEYRING_INNER RIDER_KEYRING_HOME
if [ -n "${RIDER_OUTER_HOME:-}" ]; then export HOME="$RIDER_OUTER_HOME"; fi
unset RIDER_OUTER_HOME
status=0
"$@" || status=$?
for pid in $daemons; do kill -KILL "$pid" 2>/dev/null || true; done
exit $status
