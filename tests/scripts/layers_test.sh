#!/usr/bin/env bash
# layers_test.sh: every include points down the layers (docs/architecture.md). A file in one
# layer may include its own layer and the layers below it, never one above:
#   engine/core (the maths: no words), engine/text (the words)
#     < engine/trace (the block's forward as narrated steps: core and text)
#     < engine/lesson < engine/widgets < engine/ui < engine/cli, web
# engine/lm_worker (the page trainer's messages and what its Web Worker does) stands on
# engine/core alone; widgets, the UI and the CLI may speak it.
# (The link enforces the same for the widget library, which does not link ImGui; this names the
# file and the include that would reach up.)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
declare -A allowed=(
  [engine/text]="engine/text"
  [engine/core]="engine/core"
  [engine/trace]="engine/text engine/core engine/trace"
  [engine/lesson]="engine/text engine/core engine/trace engine/lesson"
  [engine/lm_worker]="engine/text engine/core engine/lm_worker"
  [engine/widgets]="engine/text engine/core engine/trace engine/lesson engine/lm_worker engine/widgets"
  [engine/ui]="engine/text engine/core engine/trace engine/lesson engine/lm_worker engine/widgets engine/ui"
  [engine/cli]="engine/text engine/core engine/trace engine/lesson engine/lm_worker engine/widgets engine/cli"
)
status=0
for layer in "${!allowed[@]}"; do
  while IFS=: read -r file line include; do
    [[ $include =~ \#include\ \"(engine/[^\"]+)\" ]] || continue  # a bash match: no process per line
    target=${BASH_REMATCH[1]}
    ok=0
    for below in ${allowed[$layer]}; do [[ $target == "$below"/* ]] && ok=1; done
    if ((!ok)); then echo "$file:$line: $layer includes $target, a layer above it"; status=1; fi
  done < <(git ls-files "$layer" | grep -E '\.(h|cpp|inc)$' | xargs grep -nE '^#include "engine/' || true)
done
((status)) || echo "every include points down the layers"
exit $status
