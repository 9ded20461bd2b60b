#!/usr/bin/env bash
# Runs a command inside a private D-Bus session where a *stub* Secret Service
# (scripts/secret-service-stub.py) serves org.freedesktop.secrets. Unlike gnome-keyring
# (scripts/with-keyring.sh) and KeePassXC (scripts/with-keepassxc.sh), the stub can be told to
# refuse or stall writes on demand, so a test can prove that RiderKit never drops a rotated
# refresh token when the keyring fails a save: the server has already retired the old one, so
# losing the new one would end the sign-in.
#
#   scripts/with-stub-keyring.sh swift test --skip-build --filter KeyringFailure
#
# Inside, RIDER_STUB_KEYRING_MODE_FILE names the file that steers the stub, read again on every
# write: `accept` (also a missing or empty file), `refuse` (CreateItem and SetSecret fail at once
# with org.freedesktop.DBus.Error.Failed), `stall` (they never answer; reads still work) or
# `stall-reads` (writes work; GetSecrets and Item.GetSecret never answer) or `refuse-plain-first`
# (a plain session only for a client that asked for a DH one first, as libsecret does).
# "$RIDER_STUB_KEYRING_MODE_FILE.writes" holds the number of write attempts so far, updated
# before each one is answered. A caller may set RIDER_STUB_KEYRING_MODE_FILE itself; otherwise
# it is a file in the throwaway folder that starts as `accept`.
#
# The recipe follows with-keyring.sh and with-keepassxc.sh:
# - XDG_RUNTIME_DIR and the stub's HOME are a throwaway folder, set *before* dbus-run-session;
# - the bus runs with its own configuration, a session bus *without service activation*: with
#   the standard one, a call to org.freedesktop.secrets before the stub owns it (or after it
#   died) would start gnome-keyring-daemon, and a test expecting refusals would silently talk
#   to a keyring that accepts everything;
# - we wait until the stub owns org.freedesktop.secrets and the `default` alias names an
#   unlocked collection;
# - the stub (Debian's /usr/bin/python3 with python3-gi, not a pyenv python) and the bus are
#   ended by PID with SIGKILL: the bus's SIGTERM may reach a child with signals blocked.
# The command's exit status is this script's. Inside, RIDER_TEST_KEYRING=1 tells the tests a
# keyring is expected (a missing one fails them) and RIDER_TEST_KEYRING_PROVIDER=stub which.
set -euo pipefail
# shellcheck source=secret-service-bus.sh
. "$(dirname "${BASH_SOURCE[0]}")/secret-service-bus.sh"

if [ $# -eq 0 ]; then
  echo "usage: with-stub-keyring.sh COMMAND [ARGUMENT...]" >&2
  exit 2
fi

python=/usr/bin/python3
if [ "${RIDER_STUB_KEYRING_INNER:-}" != 1 ]; then
  for tool in dbus-run-session dbus-send "$python"; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "with-stub-keyring: $tool is missing; run scripts/install-deps.sh" >&2
      exit 1
    }
  done
  "$python" -c 'from gi.repository import Gio, GLib' 2>/dev/null || {
    echo "with-stub-keyring: $python cannot import gi (python3-gi); run scripts/install-deps.sh" >&2
    exit 1
  }
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/rider-stub-keyring.XXXXXX")
  chmod 700 "$scratch"
  mkdir -m 700 "$scratch/home" "$scratch/runtime"
  trap 'rm -rf "$scratch"' EXIT
  mode_file="${RIDER_STUB_KEYRING_MODE_FILE:-}"
  if [ -z "$mode_file" ]; then
    mode_file="$scratch/mode"
    echo accept > "$mode_file"
  fi
  write_bus_config "$scratch/bus.conf"
  status=0
  RIDER_STUB_KEYRING_INNER=1 RIDER_STUB_KEYRING_SCRATCH="$scratch" RIDER_STUB_KEYRING_MODE_FILE="$mode_file" \
    XDG_RUNTIME_DIR="$scratch/runtime" \
    dbus-run-session --config-file="$scratch/bus.conf" -- "$0" "$@" || status=$?
  exit $status
fi

# Inside the private session bus.
scratch="$RIDER_STUB_KEYRING_SCRATCH"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log="$scratch/stub.log"

HOME="$scratch/home" "$python" "$here/secret-service-stub.py" >"$log" 2>&1 &
stub_pid=$!
bus_pid=$(bus_name_owner_pid org.freedesktop.DBus)
stop() {
  # `wait` reaps the stub, so bash does not report it as "Killed".
  { kill -KILL "$stub_pid"; wait "$stub_pid"; } 2>/dev/null || true
  if [ -n "$bus_pid" ]; then kill -KILL "$bus_pid" 2>/dev/null || true; fi
}

if ! wait_for_unlocked_secret_service "$stub_pid" 200 0.05; then
  echo "with-stub-keyring: the stub exited, or did not serve an unlocked default collection within 10 s; its log:" >&2
  cat "$log" >&2
  stop
  exit 1
fi

export RIDER_TEST_KEYRING=1 RIDER_TEST_KEYRING_PROVIDER=stub RIDER_STUB_KEYRING_MODE_FILE
unset RIDER_STUB_KEYRING_INNER RIDER_STUB_KEYRING_SCRATCH
status=0
"$@" || status=$?
stop
exit $status
