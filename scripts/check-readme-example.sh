#!/usr/bin/env bash
# The embedding example in README.md is the file that CI compiles (and the end-to-end tests
# run): they must not drift apart.
set -euo pipefail
cd "$(dirname "$0")/.."

example=Examples/ReadmeExample/main.swift
readme_block=$(awk '/<!-- embed-example:start -->/{grab=1; next} /<!-- embed-example:end -->/{grab=0} grab' README.md \
  | sed '/^```/d')
if [ -z "$readme_block" ]; then
  echo "check-readme-example: README.md has no embed-example block" >&2
  exit 1
fi
if ! diff <(printf '%s\n' "$readme_block") "$example" >/dev/null; then
  echo "check-readme-example: README.md's embedding example differs from $example:" >&2
  diff <(printf '%s\n' "$readme_block") "$example" >&2 || true
  exit 1
fi
echo "check-readme-example: README example matches $example"
