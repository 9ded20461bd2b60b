# Sourced by scripts/with-keepassxc.sh and scripts/with-stub-keyring.sh: the private session bus
# a test Secret Service provider runs on, and the wait until that provider is ready.

# Writes to $1 the standard session bus configuration minus <standard_session_servicedirs/>:
# nothing is ever activated, so if the provider dies a call to org.freedesktop.secrets fails
# instead of quietly starting gnome-keyring and letting the tests run against the wrong provider.
write_bus_config() {
  cat >"$1" <<XML
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
}

# Every dbus-send here waits at most 5 s for its reply, not libdbus's 25 s: the wait below makes
# up to 300 calls, and a provider that hangs must not stretch it to hours.

# The PID of the process owning bus name $1 on the session bus, or nothing.
bus_name_owner_pid() {
  dbus-send --session --reply-timeout=5000 --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID "string:$1" 2>/dev/null | awk '/uint32/ { print $2 }'
}

secret_service_call() {
  dbus-send --session --reply-timeout=5000 --print-reply --dest=org.freedesktop.secrets "$@" 2>/dev/null || true
}

# Waits until process $1 owns org.freedesktop.secrets and its `default` alias names a collection
# that says it is unlocked (the name is taken before the collection is ready, and a client that
# comes in between meets an unlock prompt). Tries $2 times, $3 seconds apart, and for no longer
# than that in all (a provider that takes each call's full reply timeout would stretch it); fails
# when the process exits or time runs out.
wait_for_unlocked_secret_service() {
  local provider=$1 tries=$2 interval=$3 alias_path locked end
  end=$((SECONDS + $(awk -v t="$tries" -v i="$interval" 'BEGIN { s = t * i; printf "%d", s == int(s) ? s : int(s) + 1 }')))
  for _ in $(seq 1 "$tries"); do
    [ "$SECONDS" -lt "$end" ] || return 1
    kill -0 "$provider" 2>/dev/null || return 1
    if [ "$(bus_name_owner_pid org.freedesktop.secrets)" != "$provider" ]; then sleep "$interval"; continue; fi
    alias_path=$(secret_service_call /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias \
                   string:default | awk '/object path/ { gsub(/"/, "", $3); print $3 }')
    if [ -n "$alias_path" ] && [ "$alias_path" != / ]; then
      locked=$(secret_service_call "$alias_path" org.freedesktop.DBus.Properties.Get \
                 string:org.freedesktop.Secret.Collection string:Locked | awk '/boolean/ { print $3 }')
      if [ "$locked" = false ]; then return 0; fi
    fi
    sleep "$interval"
  done
  return 1
}
