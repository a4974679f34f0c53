#!/usr/bin/env bash
# Runs genplay test on Kyverno's policy library (github.com/kyverno/policies,
# checked out at DIR) as its CI runs chainsaw and `kyverno test` there: from
# the library's root (so its .chainsaw.yaml applies) with its CRDs installed
# (--install .chainsaw/crds), on the test folders (.chainsaw-test,
# .kyverno-test) of every policy folder holding a generate rule or a
# GeneratingPolicy. Extra arguments go to genplay test (--report-format
# JUNIT-TEST, -v, ...).
#   usage: GO=go scripts/policy-library.sh DIR [ARGS...]
set -euo pipefail
dir=${1:?usage: policy-library.sh DIR [ARGS...] (a checkout of github.com/kyverno/policies)}
shift
GO=${GO:-go}
[[ -f "$dir/.chainsaw.yaml" && -d "$dir/.chainsaw/crds" ]] || {
	echo "policy-library: $dir is not a checkout of Kyverno's policy library (no .chainsaw.yaml and .chainsaw/crds)" >&2
	exit 2
}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$GO" build -o "$bin/genplay" ./cmd/genplay
cd "$dir"
folders=()
while IFS= read -r policy; do
	d=$(dirname "$policy")
	for t in "$d/.chainsaw-test" "$d/.kyverno-test"; do
		[[ -d "$t" ]] && folders+=("${t#./}")
	done
done < <(grep -rlE --include='*.yaml' '^\s+generate:|^kind: (Namespaced)?GeneratingPolicy' . |
	grep -v -e '/\.chainsaw-test/' -e '/\.kyverno-test/' -e '/\.chainsaw/' | sort -u)
((${#folders[@]})) || { echo "policy-library: no folder with a generate rule or a GeneratingPolicy under $dir" >&2; exit 2; }
mapfile -t folders < <(printf '%s\n' "${folders[@]}" | sort -u)
echo "policy-library: ${#folders[@]} test folders" >&2
exec "$bin/genplay" test --install .chainsaw/crds "$@" "${folders[@]}"
