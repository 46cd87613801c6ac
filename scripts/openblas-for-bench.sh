#!/usr/bin/env bash
# Usage: openblas-for-bench.sh [CACHE_DIR]
# Prints a directory holding Debian's OpenBLAS (pthread build) as libblas.so.3, liblapack.so.3
# and libopenblas.so.0, for `./neuralpath bench` to put on LD_LIBRARY_PATH of the PyTorch run
# only. Installing libopenblas0-pthread instead would switch every program's BLAS on the machine
# (the libblas.so.3 alternative, numpy's included); unpacked into the cache it changes nothing
# else.
#
# Verified and pinned the way apt verifies what it installs: `apt-get download` fetches the
# version this machine's apt would install and checks it against the signed package index; the
# unpacked tree is keyed by that version (CACHE_DIR/openblas/VERSION, default .cache/...), so a
# new version never mixes with a stale one. Its one dependency outside libc, libgfortran5, is an
# ordinary package (./neuralpath installs it).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache_root=${1:-"$(cd "$here/.." && pwd)/.cache"}
package=libopenblas0-pthread

fail() { printf 'openblas-for-bench: %s\n' "$*" >&2; exit 1; }

version=$(apt-cache show --no-all-versions "$package" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
[[ -n "$version" ]] || fail "apt knows no $package (run apt-get update?)"
multiarch=$(gcc -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH)
cache_dir="$cache_root/openblas/$version"
lib_dir="$cache_dir/root/usr/lib/$multiarch/openblas-pthread"

mkdir -p "$cache_dir"
exec 9>"$cache_dir/.lock"   # two benches at once (worktrees share the cache) unpack once
flock 9
if [[ ! -e "$lib_dir/libblas.so.3" || ! -e "$cache_dir/unpacked" ]]; then
  rm -rf "$cache_dir/root" "$cache_dir/download"
  mkdir -p "$cache_dir/download"
  (cd "$cache_dir/download" && apt-get download -qq "$package=$version" >/dev/null 2>&1) ||
    fail "apt-get download $package=$version failed"
  deb=$(ls "$cache_dir/download"/*.deb)
  dpkg-deb -x "$deb" "$cache_dir/root" || fail "cannot unpack $deb"
  [[ -e "$lib_dir/libblas.so.3" && -e "$lib_dir/libopenblas.so.0" ]] ||
    fail "$deb holds no $lib_dir/libblas.so.3 and libopenblas.so.0"
  rm -rf "$cache_dir/download"
  touch "$cache_dir/unpacked"
fi
printf '%s\n' "$lib_dir"
