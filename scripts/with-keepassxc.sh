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
# The command's exit status is this script's. Inside, RIDER_TEST_KEYRING=1 tells the tests a
# keyring is expected (a missing one fails them) and RIDER_TEST_KEYRING_PROVIDER=keepassxc which.
set -euo pipefail
# shellcheck source=secret-service-bus.sh
. "$(dirname "${BASH_SOURCE[0]}")/secret-service-bus.sh"

if [ $# -eq 0 ]; then
  echo "usage: with-keepassxc.sh COMMAND [ARGUMENT...]" >&2
  exit 2
fi

if [ "${RIDER_KEEPASSXC_INNER:-}" != 1 ]; then
  for tool in dbus-run-session dbus-send keepassxc keepassxc-cli; do
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

export RIDER_TEST_KEYRING=1 RIDER_TEST_KEYRING_PROVIDER=keepassxc
unset RIDER_KEEPASSXC_INNER RIDER_KEEPASSXC_SCRATCH
status=0
"$@" || status=$?
stop
exit $status
