#!/usr/bin/env bash
# Tests scripts/fetch-debian-source.sh offline: a made-up source package on file:// "mirrors"
# named by made-up apt sources. Checks that pinned files are fetched and re-verified, that a
# wrong hash (in the pin, in the cache, in the unpacked tree) fails with a clear message, that
# the cache is keyed by version, that Ubuntu archives are recognised and that third-party
# repositories and missing versions are refused by name.
set -uo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/fetch-debian-source.sh
work=$(mktemp -d)
trap '[[ -n "${KEEP:-}" ]] || rm -rf "$work"' EXIT
failures=0
pass() { printf 'ok    %s\n' "$1"; }
flunk() { printf 'FAIL  %s\n%s\n' "$1" "${2:-}" | sed 's/^/      /;1s/^      //' >&2; failures=$((failures + 1)); }

# A source package "npfake" VERSION with one file, published in a pool: prints its two hashes.
publish() {   # POOL_DIR VERSION CONTENT
  local pool=$1 version=$2 upstream=${2%-*}
  mkdir -p "$work/build/npfake-$upstream" "$pool"
  printf '%s\n' "$3" > "$work/build/npfake-$upstream/hello.c"
  tar -C "$work/build" -czf "$pool/npfake_$upstream.orig.tar.gz" "npfake-$upstream"
  local orig_sha; orig_sha=$(sha256sum "$pool/npfake_$upstream.orig.tar.gz" | awk '{print $1}')
  printf 'Format: 3.0 (quilt)\nSource: npfake\nVersion: %s\nChecksums-Sha256:\n %s %s npfake_%s.orig.tar.gz\n' \
    "$version" "$orig_sha" "$(stat -c %s "$pool/npfake_$upstream.orig.tar.gz")" "$upstream" > "$pool/npfake_$version.dsc"
  echo "$(sha256sum "$pool/npfake_$version.dsc" | awk '{print $1}') $orig_sha"
}
pin() {   # LOCK VERSION DSC_SHA ORIG_SHA
  local upstream=${2%-*}
  printf '# test pins\nnpfake %s npfake_%s.dsc %s\nnpfake %s npfake_%s.orig.tar.gz %s\n' \
    "$2" "$2" "$3" "$2" "$upstream" "$4" > "$1"
}
run() {   # CACHE -> stdout+stderr in $out, exit code in $rc
  out=$(NEURALPATH_SOURCES_LOCK=$lock NEURALPATH_APT_DIR=$apt "$script" npfake "$1" 2>&1); rc=$?
}

debian="$work/mirror/debian"
read -r dsc1 orig1 < <(publish "$debian/pool/main/n/npfake" 1.0-1 'int one;')
read -r dsc2 orig2 < <(publish "$debian/pool/main/n/npfake" 2.0-1 'int two;')
apt="$work/apt"; mkdir -p "$apt/sources.list.d"
cat > "$apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: file://$work/elsewhere/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/vendor-keyring.gpg

Types: deb
URIs: file://$debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
mkdir -p "$work/elsewhere/debian/pool/main/n/npfake" && cp "$debian"/pool/main/n/npfake/* "$work/elsewhere/debian/pool/main/n/npfake/"
lock="$work/pins.lock"
cache="$work/cache"

# 1. The pinned version is fetched from the Debian archive (not the third-party one), unpacked
#    under a directory named by its version, and a second call verifies and reuses it.
pin "$lock" 1.0-1 "$dsc1" "$orig1"
run "$cache"
if [[ $rc -eq 0 && "$out" == *"from file://$debian/pool/main/n/npfake"* && \
      "$(tail -n1 <<<"$out")" == "$cache/npfake/1.0-1/src/npfake-1.0" && \
      "$(cat "$cache/npfake/1.0-1/src/npfake-1.0/hello.c")" == 'int one;' ]]; then pass 'pinned version fetched from the Debian archive'
else flunk 'pinned version fetched from the Debian archive' "$out"; fi
rm -rf "$debian.moved"; mv "$debian" "$debian.moved"   # a second call must not need the network
run "$cache"
[[ $rc -eq 0 && "$out" == "$cache/npfake/1.0-1/src/npfake-1.0" ]] && pass 'cached copy verified and reused' \
  || flunk 'cached copy verified and reused' "$out"
mv "$debian.moved" "$debian"

# 2. A wrong pin fails clearly: file, both hashes, "refusing", and nothing is unpacked.
wrong=0000000000000000000000000000000000000000000000000000000000000000
pin "$lock" 1.0-1 "$wrong" "$orig1"
run "$work/cache-wrong"
if [[ $rc -ne 0 && "$out" == *"npfake_1.0-1.dsc"* && "$out" == *"pins $wrong"* && "$out" == *"has SHA-256 $dsc1"* && \
      "$out" == *refusing* && ! -e "$work/cache-wrong/npfake/1.0-1/source-dir" ]]; then pass 'wrong .dsc hash refused by name'
else flunk 'wrong .dsc hash refused by name' "$out"; fi
pin "$lock" 1.0-1 "$dsc1" "$wrong"
run "$work/cache-wrong2"
[[ $rc -ne 0 && "$out" == *"npfake_1.0.orig.tar.gz"* && "$out" == *"pins $wrong"* ]] && pass 'wrong tarball hash refused by name' \
  || flunk 'wrong tarball hash refused by name' "$out"

# 3. A cache changed after verification fails on the next use, tarball or unpacked tree.
pin "$lock" 1.0-1 "$dsc1" "$orig1"
cp -r "$cache" "$work/cache-tar" && echo junk >> "$work/cache-tar/npfake/1.0-1/download/npfake_1.0.orig.tar.gz"
run "$work/cache-tar"
[[ $rc -ne 0 && "$out" == *"npfake_1.0.orig.tar.gz (cached in"* && "$out" == *"pins $orig1"* ]] && pass 'corrupted cached tarball refused' \
  || flunk 'corrupted cached tarball refused' "$out"
cp -r "$cache" "$work/cache-tree" && echo 'int evil;' > "$work/cache-tree/npfake/1.0-1/src/npfake-1.0/hello.c"
run "$work/cache-tree"
[[ $rc -ne 0 && "$out" == *"was changed since it was verified"* && "$out" == *"hello.c"* ]] && pass 'edited unpacked source refused' \
  || flunk 'edited unpacked source refused' "$out"

# 4. Moving the pin fetches the new version beside the old one; the stale copy is not picked.
pin "$lock" 2.0-1 "$dsc2" "$orig2"
run "$cache"
if [[ $rc -eq 0 && "$(tail -n1 <<<"$out")" == "$cache/npfake/2.0-1/src/npfake-2.0" && \
      "$(cat "$cache/npfake/2.0-1/src/npfake-2.0/hello.c")" == 'int two;' ]]; then pass 'new pin, new cache directory'
else flunk 'new pin, new cache directory' "$out"; fi

# 5. An Ubuntu archive in a one-line list is recognised (universe component).
ubuntu="$work/mirror/ubuntu"
mkdir -p "$ubuntu/pool/universe/n/npfake" && cp "$debian"/pool/main/n/npfake/npfake_2.0* "$ubuntu/pool/universe/n/npfake/"
rm "$apt/sources.list.d/debian.sources"
echo "deb [arch=amd64 signed-by=/usr/share/keyrings/ubuntu-archive-keyring.gpg] file://$ubuntu/ noble main universe" > "$apt/sources.list"
run "$work/cache-ubuntu"
[[ $rc -eq 0 && "$out" == *"from file://$ubuntu/pool/universe/n/npfake"* ]] && pass 'Ubuntu archive recognised' \
  || flunk 'Ubuntu archive recognised' "$out"

# 6. A version no configured archive carries fails with the URLs tried and what to do.
pin "$lock" 1.0-1 "$dsc1" "$orig1"
rm "$ubuntu"/pool/universe/n/npfake/*; 
run "$work/cache-missing"
[[ $rc -ne 0 && "$out" == *"npfake 1.0-1 (npfake_1.0-1.dsc) is on none of the archives"* && \
   "$out" == *"file://$ubuntu/pool/universe/n/npfake/npfake_1.0-1.dsc"* && "$out" == *"snapshot.debian.org"* ]] \
  && pass 'missing version named with the places tried' || flunk 'missing version named with the places tried' "$out"

# 7. The live mirror lacks the version, but the entry names the snapshot it was taken from
#    (as Debian's container images do, in a comment): fetched from that snapshot.
snapshot="$work/snapshot.debian.org/archive/debian/20250520T000000Z"
mkdir -p "$snapshot/pool/main/n/npfake" "$work/emptymirror/debian" && cp "$debian"/pool/main/n/npfake/npfake_1.0* "$snapshot/pool/main/n/npfake/"
rm -f "$apt/sources.list"
cat > "$apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
# file://$snapshot
URIs: file://$work/emptymirror/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
run "$work/cache-snapshot"
[[ $rc -eq 0 && "$out" == *"from file://$snapshot/pool/main/n/npfake"* ]] && pass 'snapshot named beside the mirror used when the mirror lacks it' \
  || flunk 'snapshot named beside the mirror used when the mirror lacks it' "$out"
rm "$apt/sources.list.d/debian.sources"

# 8. No archive at all (only a third-party repository): said so.
echo "deb [signed-by=/usr/share/keyrings/vendor.gpg] file://$work/elsewhere/debian bookworm main" > "$apt/sources.list"
run "$work/cache-none"
[[ $rc -ne 0 && "$out" == *"no Debian or Ubuntu archive"* ]] && pass 'no archive configured' || flunk 'no archive configured' "$out"

exit $((failures > 0))
