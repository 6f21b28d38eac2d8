#!/usr/bin/env bash
# Checks the Debian package without installing it: unpacks it into a
# throw-away root (dpkg -x) and checks, for every ELF file it ships, that
#   - ldd resolves every library it needs (none "not found");
#   - the package's own libraries resolve inside the throw-away root
#     ($ORIGIN RPATHs), never from a build tree;
#   - every other library it names directly (NEEDED) belongs to a package
#     the .deb declares in Depends, and every library ldd resolves belongs to
#     a package in the dependency closure of Depends (apt-cache, Depends and
#     Pre-Depends only), so `apt install ./macroscope_*.deb` brings them all.
# Prints what it checked; exits 1 on the first failure.
#   scripts/check-deb.sh [DEB]   (default: build-package/macroscope_*.deb)
set -euo pipefail
root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deb=${1:-$(ls "$root_dir"/build-package/macroscope_*.deb 2>/dev/null | head -1)}
[ -f "$deb" ] || { echo "check-deb: no package (run scripts/package.sh first)" >&2; exit 1; }
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/macroscope-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
dpkg -x "$deb" "$work/root"
echo "package: $(basename "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Package names in Depends (the first of each alternative counts, and the
# others are accepted too).
declared=$(echo "$depends" | tr ',|' '\n\n' | sed 's/(.*)//; s/ //g' | sed '/^$/d' | sort -u)
closure=$(apt-cache depends --recurse --important --no-pre-depends $declared 2>/dev/null |
  sed -n 's/^\([^ <].*\)$/\1/p; s/^ *\(Pre\)\?Depends: \([^<].*\)$/\2/p' | sed 's/:any$//; s/:amd64$//' | sort -u)
closure=$(printf '%s\n%s\n' "$closure" "$declared" | sort -u)
echo "dependency closure: $(echo "$closure" | wc -l) packages"

# One dpkg -S for every library path (merged /usr: both spellings).
declare -A owner_of
fill_owners() {
  local line pkgs path
  while IFS= read -r line; do
    pkgs=${line%%: *}
    path=${line#*: }
    pkgs=${pkgs%%,*}
    owner_of[$path]=${pkgs%:*}
  done < <(dpkg -S "$@" 2>/dev/null || true)
}
owner() {
  local real
  real=$(readlink -f "$1")
  for candidate in "$1" "$real" "/usr$real" "${real#/usr}" "/usr$1" "${1#/usr}"; do
    if [ -n "${owner_of[$candidate]:-}" ]; then
      echo "${owner_of[$candidate]}"
      return
    fi
  done
}

elf_files=0
libraries=0
: > "$work/resolved"
: > "$work/needed"
while IFS= read -r -d '' file; do
  head -c 4 "$file" | grep -q $'\x7fELF' || continue
  elf_files=$((elf_files + 1))
  name=${file#"$work/root"}
  out=$(env -u LD_LIBRARY_PATH ldd "$file")
  if grep -q "not found" <<< "$out"; then
    fail "$name: $(grep "not found" <<< "$out" | tr '\n' ' ')"
  fi
  readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sed "s|^|$name |" >> "$work/needed"
  while read -r lib arrow path _; do
    [ "$arrow" = "=>" ] || continue
    libraries=$((libraries + 1))
    case "$path" in
      "$work/root"/*) continue ;;   # shipped by the package itself
    esac
    if [[ "$path" == "$root_dir"/* ]]; then
      fail "$name loads $path from the checkout"
    fi
    if [ -e "$work/root$(dirname "$name")/$lib" ]; then
      fail "$name: $lib resolves to $path, not to the copy shipped beside it"
    fi
    echo "$name $lib $path" >> "$work/resolved"
  done <<< "$out"
done < <(find "$work/root" -type f -print0)
[ "$elf_files" -ge 8 ] || fail "only $elf_files ELF files in the package"

mapfile -t paths < <(awk '{print $3}' "$work/resolved" | sort -u)
mapfile -t reals < <(for p in "${paths[@]}"; do readlink -f "$p"; done | sort -u)
fill_owners "${paths[@]}" "${reals[@]}"
declare -A direct_pkg
while read -r name lib path; do
  pkg=$(owner "$path")
  [ -n "$pkg" ] || fail "$name: $lib ($path) belongs to no Debian package"
  if grep -qxF "$name $lib" "$work/needed"; then
    grep -qxF "$pkg" <<< "$declared" ||
      fail "$name needs $lib directly, shipped by $pkg, which Depends does not name"
    direct_pkg[$lib]=$pkg
  fi
  grep -qxF "$pkg" <<< "$closure" ||
    fail "$name: $lib comes from $pkg, outside the dependency closure of Depends"
done < "$work/resolved"
echo "ELF files: $elf_files; resolved libraries checked: $libraries (all found; the package's own beside it, every other from a package in the closure of Depends)"
echo "libraries named directly (NEEDED) -> their package, each in Depends:"
for lib in $(printf '%s\n' "${!direct_pkg[@]}" | sort); do
  printf '  %-40s %s\n' "$lib" "${direct_pkg[$lib]}"
done
echo "check-deb: passed"
