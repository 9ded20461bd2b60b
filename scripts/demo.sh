#!/usr/bin/env bash
# The whole flow through the `rider` CLI against a reference server on a free loopback port,
# with a step-by-step transcript. Uses a throwaway HOME so it never touches your own session.
set -euo pipefail

bin_dir=${1:?usage: demo.sh BIN_DIR}
rider="$bin_dir/rider"
server="$bin_dir/rider-server"
for tool in "$rider" "$server"; do
  [ -x "$tool" ] || { echo "demo: $tool is missing; run 'make build' first" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/rider-demo.XXXXXX")
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

bold=$'\033[1m'; dim=$'\033[2m'; green=$'\033[32m'; reset=$'\033[0m'
if [ ! -t 1 ]; then bold=""; dim=""; green=""; reset=""; fi
step=0
say() { step=$((step + 1)); printf '\n%s%d. %s%s\n' "$bold" "$step" "$1" "$reset"; }
run() { printf '%s$ %s%s\n' "$dim" "$*" "$reset"; "$@"; }

say "Start the reference server on a free loopback port (access tokens live 30 s; no password sign-in, as RFC 9700 asks; DPoP-bound tokens offered, RFC 9449; browser sign-ins only as pushed requests, RFC 9126)"
mkfifo "$work/server.out"
"$server" --port 0 --seed-users 1000 --access-ttl 30 --no-password-grant --device-poll-interval 1 --dpop supported --par required \
  --exit-with-parent \
  >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
exec 3<"$work/server.out"
if ! IFS= read -r -t 30 base_url <&3; then
  echo "demo: the server did not start; its log:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
# Keep draining the server's stdout so it never blocks on a full pipe.
cat <&3 >/dev/null &
echo "rider-server listening at $base_url"

export HOME="$work/home" XDG_STATE_HOME="$work/home/.local/state" XDG_CONFIG_HOME="$work/home/.config" \
       XDG_CACHE_HOME="$work/home/.cache"
unset RIDER_BASE_URL RIDER_CONFIG
mkdir -p "$HOME"
# Never touch your own desktop keyring: without a session bus the vault falls back to the
# encrypted file, opened with this passphrase (set in the environment, never on a command line).
unset DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR  # GLib also finds a bus at $XDG_RUNTIME_DIR/bus
export RIDER_VAULT_PASSPHRASE="rider-demo-vault"

say "Point rider at the API alone, as a protected resource: no issuer, no client id. Its metadata (RFC 9728) names the provider; rider registers itself there (RFC 7591) at the first sign-in. Checked, then written to \$XDG_CONFIG_HOME/rider/config.json"
run "$rider" config set base_url "$base_url"
run "$rider" config set resource "$base_url"
run "$rider" config show
run "$rider" provider show

# The person's part, scripted: a \$BROWSER that notes the page rider opens (a person's browser
# would show it), then that page's form posted as their browser would post it.
cat >"$work/browser" <<'BROWSER_SCRIPT'
#!/bin/sh
printf '%s\n' "$1" >"$DEMO_OPENED.tmp" && mv "$DEMO_OPENED.tmp" "$DEMO_OPENED"
BROWSER_SCRIPT
chmod 700 "$work/browser"
export DEMO_OPENED="$work/opened"
# The page rider asked the browser to open (waits for it; a hang detector, not a speed limit).
opened_page() {
  for _ in $(seq 1 600); do [ -s "$DEMO_OPENED" ] && break; sleep 0.1; done
  if [ ! -s "$DEMO_OPENED" ]; then
    echo "demo: rider never showed the sign-in page" >&2
    kill "$login_pid" 2>/dev/null || true
    exit 1
  fi
  cat "$DEMO_OPENED"
  rm -f "$DEMO_OPENED"
}

say "Sign in in the browser (authorization code + PKCE, RFC 9700; the request pushed first, RFC 9126, so the page opens with a reference alone; the tokens asked for the API alone, RFC 8707): rider opens the provider's page and waits on 127.0.0.1"
printf '%s$ %s%s\n' "$dim" "$rider login" "$reset"
BROWSER="$work/browser" "$rider" login &
login_pid=$!
page=$(opened_page)
printf '%s(the person signs in on that page as demo@example.com and allows rider, the client it registered; the provider sends the browser back to rider)%s\n' "$dim" "$reset"
# -L: the page rider opens is its one-time local address, which sends the browser on to the provider.
request=$(curl -fsS -L "$page" | sed -n 's/.*name="request" value="\([^"]*\)".*/\1/p')
# -L follows the provider's 303 back to rider's loopback address, as the browser would.
curl -fsS -L -o /dev/null --data-urlencode "request=$request" --data-urlencode "email=demo@example.com" \
  --data-urlencode "password=rider-demo" --data-urlencode "action=approve" "$base_url/oauth2/authorize"
wait "$login_pid"

say "Who am I?"
run "$rider" whoami

say "The session, without any token: its tokens are bound to a key rider made for it (DPoP: the provider offers it), named by thumbprint"
run "$rider" session show

say "Where the session is kept, and why (no keyring here, so the encrypted file)"
run "$rider" vault status

say "Update the rider profile (conditional on its ETag)"
run "$rider" profile update --display-name "Demo Rider" --type mentor --description "Rides the coast road every Sunday"
run "$rider" profile show

say "Sports with a level, a base location and preferences"
run "$rider" sports add gravel --level intermediate
run "$rider" sports mine
run "$rider" profile location --set -33.9249,18.4241 --name "Cape Town"
run "$rider" profile preferences --newsletter off

say "List riders by id (rider users list --all streams every page)"
run "$rider" users list --limit 5

say "Search other riders (diacritics ignored: 'jose' finds José)"
run "$rider" users search jose --limit 5

say "The same search offline, from the local cache (it says where the answer came from)"
run "$rider" users search jose --limit 5 --policy cache-only
run "$rider" cache stats

say "Register a second account, then sign it in with a device code (RFC 8628): for a machine without a browser, approved on another device"
printf 'ana-password\n' | run "$rider" register --email ana@example.com --display-name "Ana" --type learner --password-stdin
printf '%s$ %s%s\n' "$dim" "$rider login --device" "$reset"
BROWSER="$work/browser" "$rider" login --device &
login_pid=$!
page=$(opened_page)
code=${page##*user_code=}
printf '%s(the person opens %s, signs in there as ana@example.com and approves code %s)%s\n' "$dim" "$page" "$code" "$reset"
curl -fsS -o /dev/null --data-urlencode "user_code=$code" --data-urlencode "email=ana@example.com" \
  --data-urlencode "password=ana-password" --data-urlencode "action=approve" "$base_url/device"
wait "$login_pid"

say "Both accounts are kept side by side, as gh auth status shows them: the one signed in last is active"
run "$rider" session list
run "$rider" whoami

say "Act as the other account for one command (--account, or RIDER_ACCOUNT), or switch the active one"
run "$rider" --account demo@example.com profile show
run "$rider" session switch
run "$rider" session list

say "A token copied out of a bound session is refused on its own: the API wants a proof signed with the session's key"
printf '%s$ %s%s\n' "$dim" "rider session token --account ana@example.com | sed 's/^/Authorization: Bearer /' | curl -H @- $base_url/auth/me" "$reset"
status=$("$rider" session token --account ana@example.com | sed 's/^/Authorization: Bearer /' \
  | curl -sS -o /dev/null -w '%{http_code}' -H @- "$base_url/auth/me")
printf '%s(the API answered %s)%s\n' "$dim" "$status" "$reset"
[ "$status" = 401 ] || { echo "demo: a DPoP-bound token alone was accepted ($status)" >&2; exit 1; }

say "A token for a script, renewed first when it is about to expire (as gh auth token), with the proof for one request, kept off argv"
# The headers go to curl on stdin: on curl's command line the token would be readable by every user.
printf '%s$ %s%s\n' "$dim" "rider session token --account ana@example.com --dpop-proof GET $base_url/auth/me | curl -H @- $base_url/auth/me" "$reset"
"$rider" session token --account ana@example.com --dpop-proof GET "$base_url/auth/me" | curl -fsS -H @- "$base_url/auth/me"
echo

say "Refresh the session (the server rotates the refresh token)"
run "$rider" session refresh

say "Log out of Ana (tokens revoked on the server, her session and cache removed here); Demo stays signed in and active"
run "$rider" logout --account ana@example.com
run "$rider" session list

say "Log out of every account on the server"
run "$rider" logout --all

say "After logout, commands that need a session say so"
set +e
"$rider" whoami
code=$?
set -e
printf '%s(exit code %d: not signed in)%s\n' "$dim" "$code" "$reset"
[ "$code" -eq 4 ] || { echo "demo: expected exit code 4 after logout, got $code" >&2; exit 1; }

printf '\n%sDemo complete: browser and device sign-in with DPoP-bound tokens, two accounts side by side (list, switch, token and proof), whoami, profile update, search (online and from the cache), refresh and logout all succeeded.%s\n' "$green" "$reset"
