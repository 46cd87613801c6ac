#!/usr/bin/env bash
# Usage: fetch-debian-source.sh PACKAGE [CACHE_DIR]
# Fetches the upstream sources of a Debian source package (we use it for `imgui` and `md4c`),
# verifies them, unpacks them into CACHE_DIR/PACKAGE (default .cache/PACKAGE) and prints the
# unpacked upstream directory. A second call with the cache in place prints it at once.
#
# Why a private source list: the machine's apt sources may carry no deb-src lines and we must
# not edit the system's. We reuse the mirror URI the machine already uses (never a hard-coded
# one), signed by Debian's archive keyring, so apt checks the Sources index's signature and the
# files' checksums against it.
set -euo pipefail

package=${1:?usage: fetch-debian-source.sh PACKAGE [CACHE_DIR]}
cache_root=${2:-"$(cd "$(dirname "$0")/.." && pwd)/.cache"}
cache_dir="$cache_root/$package"
stamp="$cache_dir/source-dir"
if [[ -f "$stamp" && -d "$(cat "$stamp")" ]]; then
  cat "$stamp"; exit 0
fi

mkdir -p "$cache_dir/apt/lists/partial" "$cache_dir/download"

# The URI of the machine's Debian main archive, from deb822 (.sources) or one-line lists.
mirror=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null \
           | awk '{print $2}' | grep -E '/debian/?$' | head -n1 || true)
if [[ -z "$mirror" ]]; then
  mirror=$(grep -hE '^\s*deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
             | awk '{for(i=2;i<=NF;i++) if ($i ~ /^https?:/) {print $i; exit}}' \
             | grep -E '/debian/?$' | head -n1 || true)
fi
[[ -n "$mirror" ]] || { echo "fetch-debian-source: no Debian mirror in /etc/apt sources" >&2; exit 1; }

# The machine's own release (bookworm: imgui 1.86, trixie: 1.90.1; both build here).
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
case "$suite" in bookworm|trixie) ;; *) suite=bookworm ;; esac

list="$cache_dir/apt/sources.list"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" > "$list"
apt_opts=(-o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists="$cache_dir/apt/lists" -o APT::Sandbox::User=root)

echo "fetch: Debian source package $package ($suite) from $mirror" >&2
apt-get "${apt_opts[@]}" -qq update >&2
# We need only the .dsc and the upstream tarball. Some mirrors lack the Debian-packaging
# tarball of a version they still index (seen for md4c), so a failed fetch is fine as long as
# those two arrived; apt verified each file it kept against the signed index.
apt_log="$cache_dir/apt-source.log"
(cd "$cache_dir/download" && apt-get "${apt_opts[@]}" -qq source --download-only "$package") \
  >"$apt_log" 2>&1 || true

dsc=$(ls "$cache_dir"/download/"${package}"_*.dsc 2>/dev/null | head -n1)
orig=$(ls "$cache_dir"/download/"${package}"_*.orig.tar.* 2>/dev/null | head -n1)
if [[ ! -f "$dsc" || ! -f "$orig" ]]; then
  cat "$apt_log" >&2
  echo "fetch: could not download $package's sources (apt's messages above)" >&2
  exit 1
fi
# apt checked these against the signed index; check the tarball against the .dsc once more so
# a cache corrupted later is caught too.
want=$(awk '/^Checksums-Sha256:/{f=1;next} f&&/^ /{print $1, $3} /^[^ ]/{f=0}' "$dsc" \
         | awk -v n="$(basename "$orig")" '$2==n{print $1}')
have=$(sha256sum "$orig" | awk '{print $1}')
[[ -n "$want" && "$want" == "$have" ]] || { echo "fetch: checksum mismatch for $orig" >&2; exit 1; }

rm -rf "$cache_dir/src" && mkdir -p "$cache_dir/src"
tar -xf "$orig" -C "$cache_dir/src"
top=$(find "$cache_dir/src" -mindepth 1 -maxdepth 1 -type d | head -n1)
[[ -d "$top" ]] || { echo "fetch: $orig unpacked to nothing" >&2; exit 1; }
echo "$top" > "$stamp"
echo "$top"
