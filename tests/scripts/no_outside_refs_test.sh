#!/usr/bin/env bash
# no_outside_refs_test.sh: no tracked file cites a document that is not in the repository (the
# product owner's design notes live outside it; what a newcomer needs is in README.md and docs/).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
pattern='DESIGN\.md|STYLE\.md|\.\./shared/'
if hits=$(git ls-files -z | grep -zv '^tests/scripts/no_outside_refs_test\.sh$' | xargs -0 grep -nE "$pattern" 2>/dev/null); then
  echo "files cite documents outside the repository:"; echo "$hits"; exit 1
fi
echo "no tracked file cites a document outside the repository"
