#!/usr/bin/env bash
# The engine's copy of github.com/tommie/v8go (v8go/PATCH.md) against the
# upstream module from the Go module proxy:
#   ./v8go-upstream.sh check  every file in v8go/UPSTREAM.sha256 byte-identical
#                             to upstream, and the manifest's hashes right
#   ./v8go-upstream.sh copy   (re)copy upstream's files (VERSION, default the
#                             pinned one) and rewrite the manifest; the added
#                             files (PATCH.md) are left as they are
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-check}
version=${VERSION:-v0.34.0}
dir=$(cd /tmp && go mod download -json "github.com/tommie/v8go@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$dir" ] || { echo "v8go-upstream.sh: no module directory for github.com/tommie/v8go@$version" >&2; exit 1; }

# What the build needs: the Go package (no tests), its C++ and headers, the
# V8 headers it compiles against (deps/include; the prebuilt V8 libraries
# are the separate deps/<os>_<arch> modules), the licence, go.mod and go.sum.
upstream_files() {
  (cd "$dir" && {
    ls LICENSE go.mod go.sum ./*.go ./*.cc ./*.h | sed 's|^\./||' | grep -v '_test\.go$'
    find deps/include -type f \( -name '*.h' -o -name '*.go' \)
  } | LC_ALL=C sort)
}

case $mode in
copy)
  upstream_files | while read -r f; do
    mkdir -p "v8go/$(dirname "$f")"
    cp "$dir/$f" "v8go/$f"
    chmod 644 "v8go/$f"
  done
  (cd "$dir" && upstream_files | xargs sha256sum) > v8go/UPSTREAM.sha256
  echo "copied $(wc -l < v8go/UPSTREAM.sha256) files of github.com/tommie/v8go@$version; now re-apply PATCH.md's added files"
  ;;
check)
  diff <(cut -c67- v8go/UPSTREAM.sha256) <(upstream_files) || { echo "v8go/UPSTREAM.sha256 does not list upstream's file set" >&2; exit 1; }
  (cd "$dir" && sha256sum --quiet -c "$OLDPWD/v8go/UPSTREAM.sha256") || { echo "the manifest's hashes are not upstream's" >&2; exit 1; }
  (cd v8go && sha256sum --quiet -c UPSTREAM.sha256) || { echo "copied files differ from upstream" >&2; exit 1; }
  echo "v8go: $(wc -l < v8go/UPSTREAM.sha256) files byte-identical to github.com/tommie/v8go@$version"
  ;;
*) echo "usage: $0 check|copy" >&2; exit 2 ;;
esac
