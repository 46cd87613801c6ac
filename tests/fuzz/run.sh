#!/usr/bin/env bash
# run.sh [--brief] SECONDS [TARGET...]: runs each libFuzzer target (default: all) for SECONDS on
# one core, niced, starting from the committed seeds in tests/fuzz/corpus/TARGET and what earlier
# runs learnt in .cache/fuzz/corpus/TARGET (ignored by git), where new inputs go too. Crashes go
# to .cache/fuzz/crashes/, logs to .cache/fuzz/logs/. --brief (./neuralpath test) starts from the
# committed seeds alone and throws what it learns away, so it takes SECONDS however long
# earlier runs were. Prints one line per target (seconds, runs, coverage, crashes) and exits 1
# if any target crashed, hung (> 10 s on one input) or ran out of memory (> 2 GB).
# A crash found here becomes a file in tests/fuzz/regressions/TARGET (replayed by ctest) and a
# test in the suite of the layer it broke.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
brief=0
[[ ${1:-} == --brief ]] && { brief=1; shift; }
seconds=${1:?usage: run.sh [--brief] SECONDS [TARGET...]}; shift
targets=("$@")
((${#targets[@]})) || targets=(fuzz_lesson fuzz_equation fuzz_settings fuzz_progress fuzz_attend fuzz_share)
bin=$root/build/fuzz/tests/fuzz
work=$root/.cache/fuzz

declare -A dict=([fuzz_lesson]=lesson.dict [fuzz_equation]=equation.dict [fuzz_settings]=settings.dict
                 [fuzz_progress]=json.dict [fuzz_attend]=json.dict [fuzz_share]=share.dict)
# Large enough for nesting thousands deep; larger inputs would only slow each run down.
declare -A max_len=([fuzz_lesson]=65536 [fuzz_equation]=8192 [fuzz_settings]=8192
                    [fuzz_progress]=8192 [fuzz_attend]=16384 [fuzz_share]=16384)

failed=0
for t in "${targets[@]}"; do
  [[ -x $bin/$t ]] || { echo "fuzz: $bin/$t is not built (cmake --build --preset fuzz)" >&2; exit 2; }
  mkdir -p "$work/corpus/$t" "$work/crashes" "$work/logs"
  log=$work/logs/$t.log
  learnt=$work/corpus/$t
  ((brief)) && learnt=$(mktemp -d)
  nice -n 10 "$bin/$t" "$learnt" "$root/tests/fuzz/corpus/$t" \
    -dict="$root/tests/fuzz/${dict[$t]}" -max_len="${max_len[$t]}" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/crashes/$t-" \
    >"$log" 2>&1
  rc=$?
  ((brief)) && rm -rf "$learnt"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  crash=$(grep -m1 -oE 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)[^ ]*: [^(]*|runtime error: .*|Test unit written to .*' "$log" | head -2 | tr '\n' ' ')
  if ((rc == 0)); then
    printf 'fuzz: %-14s %5ss  %10s runs  %-9s  no crash\n' "$t" "$seconds" "${runs:-?}" "${cov:-}"
  else
    failed=1
    printf 'fuzz: %-14s %5ss  %10s runs  %-9s  FAILED (exit %s): %s (log: %s)\n' "$t" "$seconds" "${runs:-?}" \
      "${cov:-}" "$rc" "${crash:-see log}" "$log"
  fi
done
exit $failed
