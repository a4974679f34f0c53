#!/usr/bin/env bash
# Builds Kyverno's CLI at KYVERNO_VERSION into DIR (DIR/kyverno), or reuses
# the one already there when DIR/VERSION names the same module version and
# sum. `go install` refuses the module (replace directives), so the module is
# downloaded, copied out of the module cache, made writable and built there
# (about 7 minutes on 2 cores, 265 MB), at low priority.
#   usage: GO=go KYVERNO_VERSION=v1.19.0 scripts/kyverno-cli.sh DIR
set -euo pipefail
dir=${1:?usage: kyverno-cli.sh DIR}
GO=${GO:-go}
version=${KYVERNO_VERSION:-v1.19.0}
module=github.com/kyverno/kyverno
info=$(cd / && GOFLAGS=-mod=mod "$GO" mod download -json "$module@$version")
sum=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$info")
src=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' <<<"$info")
stamp="$module@$version $sum"
if [[ -x "$dir/kyverno" && -f "$dir/VERSION" && "$(cat "$dir/VERSION")" == "$stamp" ]]; then
	echo "kyverno-cli: reusing $dir/kyverno ($stamp)"
	exit 0
fi
[[ -n "$src" && -d "$src" ]] || { echo "kyverno-cli: go mod download gave no module folder" >&2; exit 1; }
mkdir -p "$dir"
rm -rf "$dir/src"
cp -r "$src" "$dir/src"
chmod -R u+w "$dir/src"
echo "kyverno-cli: building $module@$version into $dir (about 7 minutes)"
(cd "$dir/src" && CGO_ENABLED=0 nice -n 10 "$GO" build -o "$dir/kyverno" ./cmd/cli/kubectl-kyverno)
rm -rf "$dir/src"
echo "$stamp" >"$dir/VERSION"
