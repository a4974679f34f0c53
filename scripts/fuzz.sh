#!/usr/bin/env bash
# Explores: runs every Go fuzz target in the module for FUZZTIME each
# (default 30s), one after the other (`make fuzz`). It is not part of `make
# test`, which runs only the seed corpora: a random finding must not block
# unrelated work. A crasher is written by `go test` to the target's
# testdata/fuzz/<Target>/ folder, where plain `go test` replays it as a seed
# from then on: commit it with the fix, in the same change.
#
#   scripts/fuzz.sh                      # every target, 30s each
#   FUZZTIME=60s scripts/fuzz.sh         # longer
#   scripts/fuzz.sh ./engine/variables   # only the targets of some packages
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)

# `go test -list` prints a package's test names, then "ok  <package> ...".
targets=$("$GO" test -list '^Fuzz' "${pkgs[@]}" | awk '
  /^Fuzz/ { names = names " " $1; next }
  /^ok / { n = split(names, a, " "); for (i = 1; i <= n; i++) print $2, a[i]; names = "" }')
if [ -z "$targets" ]; then
  echo "fuzz: no fuzz targets in ${pkgs[*]}" >&2
  exit 1
fi

failed=()
while read -r pkg target; do
  echo "fuzz: $pkg $target for $FUZZTIME"
  # Go's fuzzer can end a short run with "context deadline exceeded" and no
  # failing input when the time runs out while a worker is busy (a loaded
  # machine): that is the fuzzer's own timeout, not a finding, so such a
  # run is tried once more. A real failure writes its input and fails.
  for attempt in 1 2; do
    if out=$("$GO" test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1); then
      printf '%s\n' "$out"
      break
    fi
    printf '%s\n' "$out"
    if [ "$attempt" = 1 ] && grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
      echo "fuzz: $pkg $target: the fuzzer's own deadline, no failing input; once more"
      continue
    fi
    failed+=("$pkg $target")
    break
  done
done <<<"$targets"

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failing targets (their crashers are under testdata/fuzz):" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "fuzz: $(wc -l <<<"$targets") targets passed"
