#!/usr/bin/env bash
# Runs a command inside a private D-Bus session where KeePassXC, headless, serves the Secret
# Service (org.freedesktop.secrets), so the vault tests run against a second real provider
# besides gnome-keyring (scripts/with-keyring.sh), never against the user's own.
#
#   scripts/with-keepassxc.sh swift test --skip-build --filter SecretService
#
# The recipe (KeePassXC 2.7.4, Debian 12's `keepassxc` package):
# - everything of KeePassXC's lives in a throwaway folder: its HOME, XDG_CONFIG_HOME/CACHE/DATA,
#   TMPDIR (where it keeps its single-instance lock and socket) and the session's XDG_RUNTIME_DIR
#   (set *before* dbus-run-session), so nothing touches the caller's KeePassXC;
# - the database is made by `keepassxc-cli import` from a KeePass XML file, the only way the
#   command line offers to set the database's custom data: `FDO_SECRETS_EXPOSED_GROUP` names the
#   root group's UUID, which exposes that group as a Secret Service collection. The database has
#   no name, as one made by `keepassxc-cli db-create` has, so its collection's label is empty;
# - keepassxc.ini (passed with --config) turns the Secret Service on and every prompt off:
#   [FdoSecrets] Enabled, ConfirmAccessItem=false (else each new client must be allowed per item
#   in a dialog), ConfirmDeleteItem=false; SingleInstance=false so a KeePassXC running elsewhere
#   is never handed our database; no tray, update check, idle or screen lock;
# - `QT_QPA_PLATFORM=offscreen keepassxc --pw-stdin DB` opens and unlocks the database without a
#   display; a dialog would be drawn offscreen and wait forever, which the settings above avoid;
# - we wait until the `default` alias names a collection that says it is unlocked: the name
#   org.freedesktop.secrets is taken before the database is unlocked, and a client that comes
#   in between is met with an unlock prompt.
# KeePassXC and the bus are ended by PID (the bus's SIGTERM may reach a child with signals blocked).
# The command runs in a session of its own (setsid) and is watched: if KeePassXC dies while it
# runs (2.7.4 segfaulted once, and the test run then hung for good), this says so on stderr with
# KeePassXC's exit status or signal and the end of its log, ends the command and all it started,
# and exits 1; a command still running after RIDER_KEEPASSXC_TIMEOUT seconds (default 900, 0 for
# no limit) is ended the same way, exit 124. scripts/check-keepassxc-crash.sh checks the first.
# Otherwise the command's exit status is this script's. Inside, RIDER_TEST_KEYRING=1 tells the tests a
# keyring is expected (a missing one fails them) and RIDER_TEST_KEYRING_PROVIDER=keepassxc which.
set -euo pipefail
# shellcheck source=secret-service-bus.sh
. "$(dirname "${BASH_SOURCE[0]}")/secret-service-bus.sh"

if [ $# -eq 0 ]; then
  echo "usage: with-keepassxc.sh COMMAND [ARGUMENT...]" >&2
  exit 2
fi

if [ "${RIDER_KEEPASSXC_INNER:-}" != 1 ]; then
  for tool in dbus-run-session dbus-send keepassxc keepassxc-cli setsid ps; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "with-keepassxc: $tool is missing; run scripts/install-deps.sh" >&2
      exit 1
    }
  done
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/rider-keepassxc.XXXXXX")
  chmod 700 "$scratch"
  mkdir -m 700 "$scratch/home" "$scratch/runtime" "$scratch/tmp"
  trap 'rm -rf "$scratch"' EXIT
  # Without service activation (scripts/secret-service-bus.sh says why).
  write_bus_config "$scratch/bus.conf"
  status=0
  # The command keeps the caller's HOME and TMPDIR (SwiftPM, the tests' own folders); only
  # KeePassXC gets the throwaway ones.
  RIDER_KEEPASSXC_INNER=1 RIDER_KEEPASSXC_SCRATCH="$scratch" XDG_RUNTIME_DIR="$scratch/runtime" \
    dbus-run-session --config-file="$scratch/bus.conf" -- "$0" "$@" || status=$?
  exit $status
fi

# Inside the private session bus.
scratch="$RIDER_KEEPASSXC_SCRATCH"
password="rider-test-keepassxc"
database="$scratch/riderkit.kdbx"
log="$scratch/keepassxc.log"

# The root group's UUID, in the XML's base64 form and as FDO_SECRETS_EXPOSED_GROUP names it.
cat > "$scratch/database.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<KeePassFile>
  <Meta>
    <Generator>RiderKit tests</Generator>
    <RecycleBinEnabled>False</RecycleBinEnabled>
    <CustomData>
      <Item><Key>FDO_SECRETS_EXPOSED_GROUP</Key><Value>{5249444b-4954-4b45-4550-415353584321}</Value></Item>
    </CustomData>
  </Meta>
  <Root>
    <Group>
      <UUID>UklES0lUS0VFUEFTU1hDIQ==</UUID>
      <Name>Root</Name>
    </Group>
  </Root>
</KeePassFile>
XML

cat > "$scratch/keepassxc.ini" <<'INI'
[General]
ConfigVersion=2
SingleInstance=false
RememberLastDatabases=false
RememberLastKeyFiles=false
OpenPreviousDatabasesOnStartup=false
AutoReloadOnChange=false
UpdateCheckMessageShown=true

[GUI]
CheckForUpdates=false
ShowTrayIcon=false
ShowExpiredEntriesOnDatabaseUnlock=false

[Security]
LockDatabaseIdle=false
LockDatabaseScreenLock=false
ClearClipboard=false

[Browser]
Enabled=false

[SSHAgent]
Enabled=false

[FdoSecrets]
Enabled=true
ShowNotification=false
ConfirmDeleteItem=false
ConfirmAccessItem=false
INI

keepassxc_env=(HOME="$scratch/home" TMPDIR="$scratch/tmp" XDG_CONFIG_HOME="$scratch/home/.config"
  XDG_CACHE_HOME="$scratch/home/.cache" XDG_DATA_HOME="$scratch/home/.local/share" QT_QPA_PLATFORM=offscreen)

# The password twice: keepassxc-cli asks for it and for its confirmation. 100 ms is the shortest
# key-derivation time it accepts; KeePassXC spends it again on every save.
printf '%s\n%s\n' "$password" "$password" \
  | env "${keepassxc_env[@]}" keepassxc-cli import --set-password --decryption-time 100 \
      "$scratch/database.xml" "$database" >"$scratch/import.log" 2>&1 || {
  echo "with-keepassxc: keepassxc-cli could not create the test database:" >&2
  cat "$scratch/import.log" >&2
  exit 1
}

printf '%s\n' "$password" | env "${keepassxc_env[@]}" keepassxc --config "$scratch/keepassxc.ini" \
  --localconfig "$scratch/keepassxc_local.ini" --pw-stdin "$database" >"$log" 2>&1 &
keepassxc_pid=$!
bus_pid=$(bus_name_owner_pid org.freedesktop.DBus)
stop() {
  kill -TERM "$keepassxc_pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$keepassxc_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$keepassxc_pid" 2>/dev/null || true
  if [ -n "$bus_pid" ]; then kill -KILL "$bus_pid" 2>/dev/null || true; fi
}

if ! wait_for_unlocked_secret_service "$keepassxc_pid" 300 0.1; then
  echo "with-keepassxc: KeePassXC did not serve an unlocked default collection within 30 s; its log:" >&2
  cat "$log" >&2
  stop
  exit 1
fi

# Whether process $1 is still running (a zombie, dead but not yet reaped by us, is not).
running() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  case "$state" in Z*|"") return 1 ;; esac
}

# Sends signal $1 to every process of the command's session: it runs under setsid, and the test
# runner SwiftPM starts has a process group of its own, so the command's group alone is not enough.
signal_command() {
  local pid
  for pid in $(ps -o pid= -s "$command_pid" 2>/dev/null); do kill "-$1" "$pid" 2>/dev/null || true; done
}

# Ends the command and everything it started: SIGTERM, up to 5 s, then SIGKILL.
stop_command() {
  signal_command TERM
  for _ in $(seq 1 50); do
    ps -o stat= -s "$command_pid" 2>/dev/null | grep -qv '^Z' || break
    sleep 0.1
  done
  signal_command KILL
}

# Sets `ended` to how process $1, a child of this shell, ended: "SIGSEGV (signal 11)" or "status 1".
# (Not in a $(…) subshell: only this shell can wait for its children.)
ended=""
how_it_ended() {
  local status=0
  wait "$1" 2>/dev/null || status=$?
  if [ "$status" -gt 128 ]; then
    ended="SIG$(kill -l $((status - 128)) 2>/dev/null || echo '?') (signal $((status - 128)))"
  else
    ended="status $status"
  fi
}

log_tail() {
  echo "with-keepassxc: the last lines of KeePassXC's log ($log):" >&2
  tail -n 20 "$log" | sed 's/^/  /' >&2
}

export RIDER_TEST_KEYRING=1 RIDER_TEST_KEYRING_PROVIDER=keepassxc
unset RIDER_KEEPASSXC_INNER RIDER_KEEPASSXC_SCRATCH
limit=${RIDER_KEEPASSXC_TIMEOUT:-900}
case "$limit" in ''|*[!0-9]*) echo "with-keepassxc: RIDER_KEEPASSXC_TIMEOUT must be whole seconds, not '$limit'" >&2
                              stop; exit 2 ;; esac

# The command runs in a session of its own, watched: if KeePassXC dies meanwhile, every call
# the tests still make would meet a missing provider or, worse, wait on one; once a test process
# hung that way for good. So a dead KeePassXC ends the command at once and fails, and so does a
# command still running after RIDER_KEEPASSXC_TIMEOUT seconds (0: no limit). The command keeps
# our standard input; a signal to this script is passed on to it.
command_pid=""
on_signal() {
  echo "with-keepassxc: stopped by SIG$1; stopping the command and KeePassXC" >&2
  if [ -n "$command_pid" ]; then stop_command; fi
  stop
  exit $((128 + $(kill -l "$1")))
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
setsid "$@" <&0 &
command_pid=$!
started=$SECONDS
while running "$command_pid"; do
  if ! running "$keepassxc_pid"; then
    how_it_ended "$keepassxc_pid"
    echo "with-keepassxc: KeePassXC (pid $keepassxc_pid) died with $ended while" \
         "the command was running; stopping the command (the tests cannot go on without their provider)" >&2
    log_tail
    stop_command
    wait "$command_pid" 2>/dev/null || true
    stop
    exit 1
  fi
  if [ "$limit" -gt 0 ] && [ $((SECONDS - started)) -ge "$limit" ]; then
    echo "with-keepassxc: the command was still running after $limit s (RIDER_KEEPASSXC_TIMEOUT); stopping it." \
         "KeePassXC (pid $keepassxc_pid) is $(running "$keepassxc_pid" && echo running || echo gone)." >&2
    log_tail
    stop_command
    wait "$command_pid" 2>/dev/null || true
    stop
    exit 124
  fi
  sleep 0.2
done
status=0
wait "$command_pid" || status=$?
# Whatever the command left behind goes too (it could hold our output open).
signal_command KILL
# Ended together, or the crash came in the last tick: the run did not have its provider throughout.
if ! running "$keepassxc_pid"; then
  how_it_ended "$keepassxc_pid"
  echo "with-keepassxc: KeePassXC (pid $keepassxc_pid) died with $ended before" \
       "the command ended (status $status)" >&2
  log_tail
  [ "$status" -ne 0 ] || status=1
fi
stop
exit $status
