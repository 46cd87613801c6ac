#!/usr/bin/env bash
# Usage: fetch-debian-source.sh PACKAGE [CACHE_DIR]
# Fetches the pinned upstream sources of a Debian source package (we use it for `imgui` and
# `md4c`), verifies them, unpacks them into CACHE_DIR/PACKAGE/VERSION (default .cache/...) and
# prints the unpacked upstream directory.
#
# Pinned: scripts/debian-sources.lock names the exact version and the SHA-256 of its .dsc and
# upstream tarball, so every Debian or Ubuntu release builds the same code. The files come from
# the pool of an archive mirror this machine's apt already uses (read from its sources, never
# hard-coded); whatever is downloaded is checked against the pinned hashes and refused on any
# difference. Every later call checks the cached tarball and the unpacked tree again before
# printing the path; the cache is keyed by version, so a stale version is never picked.
#
# Environment (for tests): NEURALPATH_SOURCES_LOCK (the pin file), NEURALPATH_APT_DIR (where
# the apt sources live, default /etc/apt).
set -euo pipefail

package=${1:?usage: fetch-debian-source.sh PACKAGE [CACHE_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
cache_root=${2:-"$(cd "$here/.." && pwd)/.cache"}
lock=${NEURALPATH_SOURCES_LOCK:-"$here/debian-sources.lock"}
apt_dir=${NEURALPATH_APT_DIR:-/etc/apt}

fail() { printf 'fetch-debian-source: %s\n' "$*" >&2; exit 1; }

# [SECTION] The pin ------------------------------------------------------------------------------
[[ -r "$lock" ]] || fail "cannot read the pin file $lock"
version="" dsc="" dsc_sha="" orig="" orig_sha=""
while read -r name ver file sha rest; do
  [[ -z "$name" || "$name" == \#* || "$name" != "$package" ]] && continue
  [[ -z "$version" ]] && version=$ver
  [[ "$ver" == "$version" ]] || fail "$lock pins two versions of $package ($version, $ver)"
  [[ "$sha" =~ ^[0-9a-f]{64}$ ]] || fail "$lock: '$sha' for $file is not a SHA-256"
  case "$file" in
    *.dsc) dsc=$file dsc_sha=$sha ;;
    *.orig.tar.*) orig=$file orig_sha=$sha ;;
    *) fail "$lock: $file is neither a .dsc nor an upstream tarball" ;;
  esac
done < "$lock"
[[ -n "$version" ]] || fail "$lock pins no version of '$package'"
[[ -n "$dsc" && -n "$orig" ]] || fail "$lock must pin both $package's .dsc and its .orig tarball"

cache_dir="$cache_root/$package/$version"
stamp="$cache_dir/source-dir"          # the unpacked upstream directory's name, under src/
tree_sums="$cache_dir/tree.sha256"     # every unpacked file's hash, checked on each use
mkdir -p "$cache_dir/download"

# Two configures at once (worktrees share the cache) must not unpack over each other.
exec 9>"$cache_dir/.lock"
flock 9

sha_of() { sha256sum "$1" | awk '{print $1}'; }

# Refuses a file whose hash is not the pinned one, naming both.
check_pinned() {   # FILE WANT ORIGIN
  local have
  have=$(sha_of "$1")
  [[ "$have" == "$2" ]] && return 0
  fail "$(basename "$1") ($3) has SHA-256 $have, but $lock pins $2 for $package $version: refusing it. \
If the pin is right, the file is corrupt or not what Debian published; delete $cache_dir and try again."
}

# [SECTION] The cached copy, verified on every use ------------------------------------------------
if [[ -f "$stamp" && -f "$tree_sums" && -f "$cache_dir/download/$orig" ]]; then
  top="$cache_dir/src/$(cat "$stamp")"
  check_pinned "$cache_dir/download/$orig" "$orig_sha" "cached in $cache_dir/download"
  changed=$(cd "$cache_dir/src" && sha256sum --quiet -c "$tree_sums" 2>&1 | head -n3 || true)
  [[ -z "$changed" ]] || fail "the unpacked $package $version in $cache_dir/src was changed since it was \
verified ($changed). Delete $cache_dir to unpack it again, or configure with your own copy (-DIMGUI_DIR / -DMD4C_DIR)."
  echo "$top"; exit 0
fi

# [SECTION] The archive mirrors this machine's apt uses ----------------------------------------------
# Debian (…/debian, snapshot.debian.org/archive/debian/DATE) and Ubuntu (…/ubuntu, …/ubuntu-ports)
# archives, from deb822 .sources files and one-line .list files, in the order apt reads them.
# An entry signed by a key other than the distribution's archive keyring is a third-party
# repository that merely has a similar path; it is skipped.
archive_re='(/debian|/ubuntu|/ubuntu-ports|snapshot\.debian\.org/archive/debian/[0-9TZ]+)/?$'
keyring_ok() { [[ -z "$1" || "$1" == *debian-archive-keyring* || "$1" == *ubuntu-archive-keyring* || "$1" == *ubuntu-keyring* ]]; }

# Debian's container images also name, in a comment inside the entry, the snapshot.debian.org
# state their mirror was taken from ("# http://snapshot.debian.org/archive/debian/20250520T000000Z");
# that snapshot serves the same files forever, so it is tried after the live mirrors.
mirrors=() snapshots=()
add_mirror() {   # URI SIGNED_BY [snapshot]
  local uri=${1%/}
  [[ "$uri" =~ ^(https?|file):// && "$uri" =~ $archive_re ]] || return 0
  keyring_ok "$2" || return 0
  local m; for m in "${mirrors[@]}" "${snapshots[@]}"; do [[ "$m" == "$uri" ]] && return 0; done
  if [[ "${3:-}" == snapshot ]]; then snapshots+=("$uri"); else mirrors+=("$uri"); fi
}
shopt -s nullglob
for f in "$apt_dir"/sources.list.d/*.sources; do
  # One paragraph per entry: "URI<TAB>signed-by" for each enabled deb/deb-src entry.
  while IFS=$'\t' read -r uri signed kind; do add_mirror "$uri" "$signed" "$kind"; done < <(awk '
    function flush() { if (types ~ /deb/ && enabled !~ /^(no|false)$/) { n = split(uris, u, /[ \t]+/)
                         for (i = 1; i <= n; i++) if (u[i] != "") print u[i] "\t" signed
                         if (snapshot != "" && uris ~ /\/debian\/?([ \t]|$)/) print snapshot "\t" signed "\tsnapshot" }
                       types = uris = signed = enabled = snapshot = "" }
    /^[ \t]*#[ \t]*(https?|file):\/\/[^ \t]*snapshot\.debian\.org\/archive\/debian\/[0-9TZ]+\/?[ \t]*$/ {
      snapshot = $0; sub(/^[ \t]*#[ \t]*/, "", snapshot); sub(/[ \t]*$/, "", snapshot); next }
    /^[ \t]*#/ { next }
    /^[ \t]*$/ { flush(); next }
    tolower($1) == "types:"     { sub(/^[^:]*:[ \t]*/, ""); types = $0; next }
    tolower($1) == "uris:"      { sub(/^[^:]*:[ \t]*/, ""); uris = $0; next }
    tolower($1) == "signed-by:" { sub(/^[^:]*:[ \t]*/, ""); signed = ($0 == "" ? "inline key" : $0); next }
    tolower($1) == "enabled:"   { sub(/^[^:]*:[ \t]*/, ""); enabled = tolower($0); next }
    END { flush() }' "$f")
done
for f in "$apt_dir"/sources.list "$apt_dir"/sources.list.d/*.list; do
  [[ -f "$f" ]] || continue
  while IFS=$'\t' read -r uri signed; do add_mirror "$uri" "$signed"; done < <(awk '
    /^[ \t]*(deb|deb-src)[ \t]/ {
      line = $0; signed = ""
      if (match(line, /\[[^]]*\]/)) { opts = substr(line, RSTART, RLENGTH)
        if (match(opts, /signed-by=[^] \t]*/)) signed = substr(opts, RSTART + 10, RLENGTH - 10)
        line = substr(line, 1, index(line, "[") - 1) substr(line, index(line, "]") + 1) }
      split(line, w, /[ \t]+/); for (i = 1; i in w; i++) if (w[i] ~ /:\/\//) { print w[i] "\t" signed; break } }' "$f")
done
mirrors+=(${snapshots[@]+"${snapshots[@]}"})
((${#mirrors[@]})) || fail "no Debian or Ubuntu archive in $apt_dir's sources (looked for URIs ending in \
/debian, /ubuntu or /ubuntu-ports). Add your distribution's mirror there, or configure with -DIMGUI_DIR / -DMD4C_DIR."

# [SECTION] Download from the pool, check, unpack -------------------------------------------------------
# Pool path: pool/COMPONENT/PREFIX/SOURCE/FILE, PREFIX being "libx" for lib* packages, else the
# first letter. Debian has imgui and md4c in main; Ubuntu in universe (if it carries the version).
case "$package" in lib?*) prefix=${package:0:4} ;; *) prefix=${package:0:1} ;; esac
download() {   # URL FILE -> 0 when it arrived
  rm -f "$2" "$2.part"
  # apt's file:// method links instead of copying; -L keeps a real copy in the cache.
  /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$1" "$2.part" >/dev/null 2>&1 &&
    [[ -s "$2.part" ]] && cp -L "$2.part" "$2" && rm -f "$2.part"
}
tried=()
from=""
for mirror in "${mirrors[@]}"; do
  for component in main universe; do
    [[ "$component" == universe && ! "$mirror" =~ /ubuntu ]] && continue
    base="$mirror/pool/$component/$prefix/$package"
    tried+=("$base/$dsc")
    if download "$base/$dsc" "$cache_dir/download/$dsc"; then from=$base; break 2; fi
  done
done
[[ -n "$from" ]] || fail "$package $version ($dsc) is on none of the archives this machine's apt uses. Tried:
$(printf '  %s\n' "${tried[@]}")
An Ubuntu archive carries Ubuntu's own versions, and a Debian mirror only those of releases it still
serves. Add a Debian mirror (or a snapshot.debian.org/archive/debian/DATE URI, which keeps every
version) to $apt_dir's sources, or configure with -DIMGUI_DIR / -DMD4C_DIR pointing at your own copy."
echo "fetch: $package $version from $from" >&2
check_pinned "$cache_dir/download/$dsc" "$dsc_sha" "from $from"
download "$from/$orig" "$cache_dir/download/$orig" || fail "could not download $from/$orig"
check_pinned "$cache_dir/download/$orig" "$orig_sha" "from $from"
# The pin file and the signed .dsc must agree on the tarball (a typo in a pin is caught here).
in_dsc=$(awk '/^Checksums-Sha256:/{f=1;next} f&&/^ /{print $1, $3} /^[^ ]/{f=0}' "$cache_dir/download/$dsc" \
           | awk -v n="$orig" '$2==n{print $1}')
[[ "$in_dsc" == "$orig_sha" ]] || fail "$dsc lists SHA-256 '${in_dsc:-none}' for $orig, but $lock pins $orig_sha"

rm -rf "$cache_dir/src" && mkdir -p "$cache_dir/src"
tar -xf "$cache_dir/download/$orig" -C "$cache_dir/src"
top=$(find "$cache_dir/src" -mindepth 1 -maxdepth 1 -type d | head -n1)
[[ -d "$top" ]] || fail "$orig unpacked to nothing"
(cd "$cache_dir/src" && find . -type f -print0 | sort -z | xargs -0 sha256sum) > "$tree_sums"
basename "$top" > "$stamp"
echo "$top"
