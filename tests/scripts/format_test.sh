#!/usr/bin/env bash
# format_test.sh: scripts/format.sh --check fails on a C++ file that differs from .clang-format
# and passes on one that does not (the files are made here, inside the tree, and removed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
dir=$(mktemp -d "$root/build/format-test.XXXXXX")
trap 'rm -rf "$dir"' EXIT
printf 'int add(int a,int b){return a+b;}\n' >"$dir/bad.cpp"
printf 'int add(int a, int b) { return a + b; }\n' >"$dir/good.cpp"
if out=$(scripts/format.sh --check "$dir/bad.cpp"); then
  echo "FAIL: --check passed a badly formatted file"; exit 1
fi
grep -q "bad.cpp: differs" <<<"$out" || { echo "FAIL: --check did not name the file: $out"; exit 1; }
scripts/format.sh --check "$dir/good.cpp" || { echo "FAIL: --check refused a formatted file"; exit 1; }
scripts/format.sh --fix "$dir/bad.cpp"
scripts/format.sh --check "$dir/bad.cpp" || { echo "FAIL: --fix left the file unformatted"; exit 1; }
echo "format.sh: --check names a differing file, passes a formatted one, --fix formats"
