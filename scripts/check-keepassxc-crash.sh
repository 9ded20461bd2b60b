#!/usr/bin/env bash
# Checks that scripts/with-keepassxc.sh fails within seconds, and says why, when KeePassXC
# crashes while a vault operation is in flight, instead of waiting for a test run that does not
# end by itself (KeePassXC 2.7.4 segfaulted once under `make test-keepassxc`, and the job hung).
#
#   scripts/check-keepassxc-crash.sh        (needs a built rider: RIDER_BIN_DIR, else swift build --show-bin-path)
#
# Inside the wrapper, the command it runs:
# 1. stops KeePassXC (SIGSTOP), so the next call is sure to be in flight, unanswered;
# 2. starts `rider vault status` on the Secret Service vault (keyring timeout 60 s) and lets it
#    wait on KeePassXC for a second;
# 3. kills KeePassXC with SIGSEGV (and SIGCONT), as a crash would;
# 4. then stays running (`sleep`), as the test process did on CI once its provider was gone.
# The check passes when the wrapper exits non-zero within 10 s of the SIGSEGV and its stderr names
# the signal; it fails when the wrapper is still running RIDER_CRASH_CHECK_LIMIT seconds (default
# 60) after it, and then ends the wrapper's whole process group itself. It also reports how soon
# the in-flight vault operation ended (it must fail, not wait out its 60 s timeout).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --inside ]; then
  # Inside with-keepassxc.sh's private session bus.
  # shellcheck source=secret-service-bus.sh
  . scripts/secret-service-bus.sh
  work=$RIDER_CRASH_CHECK_DIR
  keepassxc=$(bus_name_owner_pid org.freedesktop.secrets)
  [ -n "$keepassxc" ] || { echo "check-keepassxc-crash: nothing owns org.freedesktop.secrets" >&2; exit 3; }
  kill -STOP "$keepassxc"
  mkdir -p "$work/home"
  started=$(date +%s.%N)
  env -i PATH=/usr/bin:/bin HOME="$work/home" DBUS_SESSION_BUS_ADDRESS="$DBUS_SESSION_BUS_ADDRESS" \
    RIDER_BASE_URL=http://127.0.0.1:9 RIDER_VAULT=secret-service RIDER_KEYRING_TIMEOUT=60 \
    "$RIDER_CRASH_CHECK_RIDER" vault status --json >"$work/rider.out" 2>"$work/rider.err" </dev/null &
  rider=$!
  sleep 1
  kill -0 "$rider" 2>/dev/null || { echo "check-keepassxc-crash: rider ended before KeePassXC answered" >&2; exit 3; }
  date +%s.%N >"$work/segv-at"
  kill -SEGV "$keepassxc"
  kill -CONT "$keepassxc" 2>/dev/null || true
  status=0
  wait "$rider" || status=$?
  echo "$status $(date +%s.%N) $started" >"$work/rider.done"
  # The test process that does not end by itself once its provider is gone.
  sleep 600
  exit 0
fi

limit=${RIDER_CRASH_CHECK_LIMIT:-60}
bin=${RIDER_BIN_DIR:-$("${SWIFT:-swift}" build --show-bin-path)}
[ -x "$bin/rider" ] || { echo "check-keepassxc-crash: no rider in $bin; build it first" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rider-crash-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

# In a session (and process group) of its own, so a wrapper that hangs can be ended with all it started.
RIDER_CRASH_CHECK_DIR="$work" RIDER_CRASH_CHECK_RIDER="$bin/rider" \
  setsid scripts/with-keepassxc.sh "$0" --inside >"$work/wrapper.out" 2>"$work/wrapper.err" </dev/null &
wrapper=$!

# Waits for the wrapper: at most `limit` seconds after the SIGSEGV, and `limit` + 60 in all
# (KeePassXC's start-up included).
status=""
give_up=$(( $(date +%s) + limit + 60 ))
while [ "$(date +%s)" -lt "$give_up" ]; do
  if ! kill -0 "$wrapper" 2>/dev/null; then
    status=0; wait "$wrapper" || status=$?
    break
  fi
  if [ -f "$work/segv-at" ] && [ "$(date +%s)" -ge "$(( $(cut -d. -f1 "$work/segv-at") + limit ))" ]; then break; fi
  sleep 0.1
done
ended=$(date +%s.%N)
if [ -z "$status" ]; then
  kill -TERM -- "-$wrapper" 2>/dev/null || true
  sleep 2
  kill -KILL -- "-$wrapper" 2>/dev/null || true
fi

echo "--- with-keepassxc.sh's stderr:"
cat "$work/wrapper.err"
echo "---"
if [ -f "$work/rider.done" ]; then
  read -r rider_status rider_end rider_start <"$work/rider.done"
  echo "the in-flight vault operation (rider vault status) ended with status $rider_status" \
       "$(awk -v a="$(cat "$work/segv-at")" -v b="$rider_end" 'BEGIN { printf "%.1f", b - a }') s after the SIGSEGV:"
  sed 's/^/  /' "$work/rider.out" "$work/rider.err"
else
  echo "the in-flight vault operation (rider vault status) had not ended"
fi

if [ ! -f "$work/segv-at" ]; then
  echo "check-keepassxc-crash: FAIL: KeePassXC was never killed (the wrapper exited ${status:-?} first)" >&2
  exit 1
fi
after=$(awk -v a="$(cat "$work/segv-at")" -v b="$ended" 'BEGIN { printf "%.1f", b - a }')
if [ -z "$status" ]; then
  echo "check-keepassxc-crash: FAIL: with-keepassxc.sh was still running $after s after KeePassXC was" \
       "killed with SIGSEGV; it waits for a command that does not end by itself" >&2
  exit 1
fi
if [ "$status" -eq 0 ]; then
  echo "check-keepassxc-crash: FAIL: with-keepassxc.sh exited 0 although KeePassXC crashed" >&2
  exit 1
fi
if ! awk -v t="$after" 'BEGIN { exit !(t <= 10) }'; then
  echo "check-keepassxc-crash: FAIL: with-keepassxc.sh took $after s after the SIGSEGV to exit (status $status)" >&2
  exit 1
fi
if ! grep -q 'SIGSEGV' "$work/wrapper.err"; then
  echo "check-keepassxc-crash: FAIL: with-keepassxc.sh exited $status, $after s after the SIGSEGV," \
       "without saying that KeePassXC died of it" >&2
  exit 1
fi
echo "check-keepassxc-crash: ok: with-keepassxc.sh exited $status, $after s after KeePassXC was killed with SIGSEGV"
