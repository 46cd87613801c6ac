#!/usr/bin/env bash
# Usage: fetch-corpus.sh NAME [CACHE_DIR]
# Fetches the language model's corpus NAME ("en" or "es"): the pinned Debian package of public
# text named in scripts/corpus.lock, checked against its SHA-256, unpacked, and the chosen files
# joined into one corpus file in the fortune format (documents separated by lines holding only
# "%"), itself checked against the pinned SHA-256. Prints the corpus file's path. Later calls
# check the cached file again and print it without fetching.
#
#   en  Debian's `fortunes` (fortune-mod's data, BSD licence): every file of
#       /usr/share/games/fortunes except ascii-art (pictures, not prose), ethnic and men-women
#       (jokes about groups of people that we do not want a model in a lesson to repeat).
#   es  Debian's `fortunes-es` (GPL-2+; "all fortunes' text and quotes are presumed to be in the
#       public domain"): every *.fortunes file of /usr/share/games/fortunes/es, not those in
#       its off/ folder (the package's own "offensive" set).
#
# The package comes through apt (`apt-get download PACKAGE=VERSION`, from the archives this
# machine's apt uses), else straight from the pool of those archives. Environment (for tests):
# NEURALPATH_CORPUS_LOCK (the pin file).
set -euo pipefail

name=${1:?usage: fetch-corpus.sh NAME [CACHE_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
cache_root=${2:-"$(cd "$here/.." && pwd)/.cache"}
lock=${NEURALPATH_CORPUS_LOCK:-"$here/corpus.lock"}
fail() { printf 'fetch-corpus: %s\n' "$*" >&2; exit 1; }

[[ -r "$lock" ]] || fail "cannot read the pin file $lock"
read -r _ package version pool deb_sha corpus_sha < <(awk -v n="$name" '$1 == n' "$lock") ||
  fail "$lock pins no corpus named '$name'"
[[ "$deb_sha" =~ ^[0-9a-f]{64}$ && "$corpus_sha" =~ ^[0-9a-f]{64}$ ]] || fail "$lock: the pins of '$name' are not SHA-256 sums"

dir="$cache_root/corpus/$name-${corpus_sha:0:16}"
corpus="$dir/corpus.txt"
sha_of() { sha256sum "$1" | awk '{print $1}'; }
mkdir -p "$dir"
exec 9>"$dir/.lock"   # two configures at once (worktrees share the cache)
flock 9
if [[ -f "$corpus" ]]; then
  [[ $(sha_of "$corpus") == "$corpus_sha" ]] || fail "$corpus was changed since it was checked; delete $dir to fetch it again"
  echo "$corpus"; exit 0
fi

# [SECTION] The package -----------------------------------------------------------------------------
deb="$dir/$(basename "$pool")"
if [[ ! -f "$deb" || $(sha_of "$deb") != "$deb_sha" ]]; then
  rm -f "$deb"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  if (cd "$scratch" && apt-get download -qq "$package=$version" >/dev/null 2>&1); then
    mv "$scratch"/*.deb "$deb"
  else
    # the pool of every archive in apt's sources
    for uri in $(grep -hoE '(https?|file)://[^ ]+/(debian|ubuntu)/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
                 tr -d ' ' | sort -u); do
      /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "${uri%/}/$pool" "$scratch/p.deb" >/dev/null 2>&1 &&
        cp -L "$scratch/p.deb" "$deb" && break
    done
  fi
  [[ -f "$deb" ]] || fail "could not download $package $version (apt-get download, or $pool from the archives in /etc/apt)"
  have=$(sha_of "$deb")
  [[ "$have" == "$deb_sha" ]] || { rm -f "$deb"; fail "$(basename "$deb") has SHA-256 $have, but $lock pins $deb_sha: refusing it"; }
fi

# [SECTION] The corpus ----------------------------------------------------------------------------------
unpacked="$dir/unpacked"
rm -rf "$unpacked" && mkdir -p "$unpacked"
dpkg-deb -x "$deb" "$unpacked"
case "$name" in
  en) files=$(cd "$unpacked/usr/share/games/fortunes" && LC_ALL=C ls | grep -vE '\.|^(ascii-art|ethnic|men-women)$' |
              sed 's|^|usr/share/games/fortunes/|') ;;
  es) files=$(cd "$unpacked/usr/share/games/fortunes/es" && LC_ALL=C ls | grep -E '\.fortunes$' |
              sed 's|^|usr/share/games/fortunes/es/|') ;;
  *) fail "no assembly rule for corpus '$name'" ;;
esac
# each file's fortunes, then a "%" line, so the last fortune of one file never runs into the next
for f in $files; do cat "$unpacked/$f"; printf '%%\n'; done > "$corpus.part"
rm -rf "$unpacked"
have=$(sha_of "$corpus.part")
[[ "$have" == "$corpus_sha" ]] || { rm -f "$corpus.part"; fail "the assembled corpus '$name' has SHA-256 $have, but $lock pins $corpus_sha"; }
mv "$corpus.part" "$corpus"
echo "$corpus"
