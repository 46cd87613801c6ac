#!/usr/bin/env bash
# format.sh: the one C++ style (.clang-format at the root), checked or applied.
#
#   scripts/format.sh --check [FILE...]   list every tracked C++ file that differs from its
#                                         formatting (or only FILEs); exit 1 when one does
#   scripts/format.sh --fix FILE...       format those files in place
#   scripts/format.sh --apply-all         once, on a clean tree: format every tracked C++ file in
#                                         one commit, list that commit in .git-blame-ignore-revs
#                                         (so `git blame` looks through it) and commit that too;
#                                         the style test (tests/CMakeLists.txt) runs from then on
#
# Files: every tracked *.cpp, *.h and *.cpp.in except third-party code (none is committed) and
# the generated or data lists (*.inc). clang-format 14 (Debian clang-format) decides.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
clang_format=${CLANG_FORMAT:-clang-format}
command -v "$clang_format" >/dev/null || { echo "format.sh: $clang_format not found (apt install clang-format)" >&2; exit 2; }

cpp_files() { git ls-files -- '*.cpp' '*.h' '*.cpp.in' | grep -v '^tests/fuzz/corpus/'; }

mode=${1:-}
shift || true
case "$mode" in
  --check)
    mapfile -t files < <( (($#)) && printf '%s\n' "$@" || cpp_files )
    ((${#files[@]})) || exit 0
    # One clang-format for every file (a process per file took a minute of the suite's time); it
    # names each line that differs as "FILE:LINE:COL: error: ...", read here back to the files.
    report=$("$clang_format" --style=file --dry-run --Werror "${files[@]}" 2>&1) && exit 0
    mapfile -t differ < <(sed -nE 's/^(.+):[0-9]+:[0-9]+: error: .*clang-format-violations.*/\1/p' <<<"$report" | sort -u)
    ((${#differ[@]})) || { echo "$report" >&2; exit 1; }  # clang-format failed otherwise: say how
    for f in "${differ[@]}"; do echo "$f: differs from .clang-format (scripts/format.sh --fix $f)"; done
    exit 1
    ;;
  --fix)
    (($#)) || { echo "format.sh --fix FILE..." >&2; exit 2; }
    "$clang_format" --style=file -i "$@"
    ;;
  --apply-all)
    [[ -z $(git status --porcelain --untracked-files=no) ]] || { echo "format.sh: commit or stash your changes first" >&2; exit 2; }
    # One style: the folders' own configs (4-space indent in engine/core and engine/lesson) go.
    git rm -q --ignore-unmatch engine/core/.clang-format engine/lesson/.clang-format
    cpp_files | xargs "$clang_format" --style=file -i
    git commit -qam "Every C++ file formatted by the one .clang-format (scripts/format.sh --apply-all; no other change)"
    rev=$(git rev-parse HEAD)
    printf '# Commits that only reformat (git blame --ignore-revs-file .git-blame-ignore-revs)\n%s\n' "$rev" >> .git-blame-ignore-revs
    git add .git-blame-ignore-revs
    git commit -qm "List the formatting commit in .git-blame-ignore-revs; the style test runs from now on"
    git config blame.ignoreRevsFile .git-blame-ignore-revs
    echo "formatted in $rev"
    ;;
  *)
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 2
    ;;
esac
