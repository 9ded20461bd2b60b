#!/usr/bin/env bash
# The `rider` manual page, generated from its argument-parser definitions by swift-argument-parser's
# generate-manual plugin (on the debug build `make test` has made), committed as docs/man/rider.1.
#
#   scripts/manual.sh          write docs/man/rider.1 (after changing a command or its help)
#   scripts/manual.sh --check  fail when docs/man/rider.1 is not what the commands generate (make test)
#
# The page's date line (.Dd) is left out of the comparison: it says when it was generated.
# ENVIRONMENT and FILES come from scripts/manual-sections.mdoc, which the plugin cannot generate.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --disable-sandbox generate-manual --configuration debug \
  --authors "RiderKit contributors" >/tmp/rider-manual.log 2>&1 || { cat /tmp/rider-manual.log >&2; exit 1; }
plugin_output=.build/plugins/GenerateManual/outputs/RiderCLI/rider.1
[ -f "$plugin_output" ] || { echo "manual: $plugin_output was not generated" >&2; cat /tmp/rider-manual.log >&2; exit 1; }
# The plugin writes the commands; ENVIRONMENT and FILES (scripts/manual-sections.mdoc) go in before
# EXIT STATUS, where man-pages(7) puts them, and each blank line of the help text becomes the
# paragraph macro mdoc wants (groff -ww warned 74 times about them; none now).
generated=/tmp/rider-manual.1
awk -v sections=scripts/manual-sections.mdoc '
  /^\.Sh "EXIT STATUS"/ { while ((getline line < sections) > 0) print line }
  /^$/ { print ".Pp"; next }
  { print }' "$plugin_output" >"$generated"
if [ "${1:-}" = "--check" ]; then
  if ! diff <(grep -v '^\.Dd ' docs/man/rider.1) <(grep -v '^\.Dd ' "$generated") >/dev/null; then
    echo "manual: docs/man/rider.1 is not in step with rider's commands; run scripts/manual.sh and commit it" >&2
    diff <(grep -v '^\.Dd ' docs/man/rider.1) <(grep -v '^\.Dd ' "$generated") | head -20 >&2
    exit 1
  fi
  echo "manual: docs/man/rider.1 is in step with rider's commands"
else
  cp "$generated" docs/man/rider.1
  echo "manual: docs/man/rider.1 written ($(wc -l <docs/man/rider.1) lines); man ./docs/man/rider.1 shows it"
fi
