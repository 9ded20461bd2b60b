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
  # The standard session bus minus service activation: if KeePassXC dies, a call to
  # org.freedesktop.secrets must fail, not quietly start gnome-keyring and let the tests pass
  # against the wrong provider.
  cat > "$scratch/bus.conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
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
bus_pid=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
  org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.DBus 2>/dev/null | awk '/uint32/ { print $2 }')
stop() {
  kill -TERM "$keepassxc_pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$keepassxc_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$keepassxc_pid" 2>/dev/null || true
  if [ -n "$bus_pid" ]; then kill -KILL "$bus_pid" 2>/dev/null || true; fi
}

secrets() {
  dbus-send --session --print-reply --dest=org.freedesktop.secrets "$@" 2>/dev/null || true
}

# Never ask for org.freedesktop.secrets before KeePassXC owns it: the bus would start
# gnome-keyring-daemon (its activation file is installed) and KeePassXC could not take the name.
owner_pid() {
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null \
    | awk '/uint32/ { print $2 }'
}
ready=""
for _ in $(seq 1 300); do
  kill -0 "$keepassxc_pid" 2>/dev/null || break
  if [ "$(owner_pid)" != "$keepassxc_pid" ]; then sleep 0.1; continue; fi
  alias_path=$(secrets /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias string:default \
                 | awk '/object path/ { gsub(/"/, "", $3); print $3 }')
  if [ -n "$alias_path" ] && [ "$alias_path" != / ]; then
    locked=$(secrets "$alias_path" org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Collection \
               string:Locked | awk '/boolean/ { print $3 }')
    if [ "$locked" = false ]; then ready=1; break; fi
  fi
  sleep 0.1
done
if [ -z "$ready" ]; then
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
