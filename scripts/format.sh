#!/usr/bin/env bash
# Formats Macroscope's C++ sources with clang-format and the project's
# .clang-format (VTK's style).
#   ./scripts/format.sh          reformat every source in place
#   ./scripts/format.sh --check  change nothing; list the files that differ
#                                and fail if there is any (the CI check)
# Test data (Testing/Data) and build trees are not sources.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
formatter=${CLANG_FORMAT:-clang-format}
command -v "$formatter" >/dev/null || { echo "format: $formatter not found (scripts/deps.sh installs it)" >&2; exit 2; }

mapfile -t sources < <(cd "$root" && find Core Common Readers Filters Representations Plugin Tools Testing \
  -path Testing/Data -prune -o -type f \( -name '*.h' -o -name '*.cxx' \) -print | sort)
[ ${#sources[@]} -gt 0 ] || { echo "format: no sources under $root" >&2; exit 2; }

cd "$root"
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${sources[@]}"; do
    "$formatter" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "format: ${#bad[@]} of ${#sources[@]} files are not formatted (run ./scripts/format.sh):"
    printf '  %s\n' "${bad[@]}"
    "$formatter" --dry-run "${bad[0]}" 2>&1 | head -20
    exit 1
  fi
  echo "format: ${#sources[@]} files follow .clang-format"
else
  "$formatter" -i "${sources[@]}"
  echo "format: ${#sources[@]} files formatted"
fi
