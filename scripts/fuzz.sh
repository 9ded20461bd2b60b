#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (Domain, Application and the vault file parsers under
# -sanitize=fuzzer,address) and runs each for FUZZ_SECONDS (default 60), starting from the seed
# corpus in Fuzz/Corpus/<target>/. Any crash, sanitizer report or broken invariant fails the run
# and leaves the input in Fuzz/.build/findings/. Usage: scripts/fuzz.sh [target …]
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"

seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz-token-response fuzz-token-error fuzz-problem fuzz-user-json fuzz-http-date fuzz-vault-file
           fuzz-stored-session)
fi

# Coverage is asked for explicitly, not left to what -sanitize=fuzzer implies: one debug build here
# came out with ASan but no coverage counters (libFuzzer: "no interesting inputs ... instrumented
# for coverage?") and fuzzed blind while reporting ok; a bare swiftc -Onone -g with the two
# -sanitize flags behaves the same. A run that reports no coverage now fails.
coverage=(-Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table)

# The linker warns once per ASan symbol it cannot export; those lines are noise, a failure is not.
build_log=$(mktemp)
if ! swift build --sanitize=fuzzer --sanitize=address "${coverage[@]}" > "$build_log" 2>&1; then
  grep -v "ld.gold: warning: Cannot export local symbol" "$build_log" >&2
  rm -f "$build_log"
  echo "fuzz: the fuzz targets do not build" >&2
  exit 2
fi
grep -v "ld.gold: warning: Cannot export local symbol" "$build_log" | tail -3
rm -f "$build_log"
bin="$(swift build --sanitize=fuzzer --sanitize=address "${coverage[@]}" --show-bin-path)"

mkdir -p .build/findings .build/corpus
summary=.build/fuzz-summary.txt
printf "%-22s %8s %12s %8s %7s  %s\n" target seconds executions corpus seeds result > "$summary"
failed=0
for target in "${targets[@]}"; do
  [ -x "$bin/$target" ] || { echo "fuzz: no target $target in $bin" >&2; exit 2; }
  # Inputs libFuzzer finds go to a working corpus under .build, never into the committed seeds.
  work=".build/corpus/$target"
  mkdir -p "$work"
  log=".build/findings/$target.log"
  echo "fuzz: $target for ${seconds} s"
  set +e
  # The Swift backtracer would re-enter the crashed process and trip ASan; leaks are not bugs here
  # (Swift's runtime caches metadata for the life of the process).
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
    "$bin/$target" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix=".build/findings/$target-" "$work" "Corpus/$target" > "$log" 2>&1
  status=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  corpus=$(find "$work" -type f | wc -l)
  seeds=$(find "Corpus/$target" -type f | wc -l)
  if [ "$status" -ne 0 ]; then result="FAILED (exit $status, see Fuzz/$log)"; failed=1
  elif grep -q "instrumented for coverage" "$log"; then result="FAILED (no coverage: the target is not instrumented)"; failed=1
  else result=ok; fi
  printf "%-22s %8s %12s %8s %7s  %s\n" "$target" "$seconds" "$runs" "$((corpus + seeds))" "$seeds" "$result" >> "$summary"
  if [ "$status" -ne 0 ]; then
    grep -m1 -E "Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|Precondition failed|deadly signal" "$log" >&2 || true
    ls .build/findings/"$target"-* 2>/dev/null | grep -v '\.log$' >&2 || true
  fi
done
cat "$summary"
exit "$failed"
