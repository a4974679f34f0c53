#!/usr/bin/env bash
# Measures the engine's benchmarks natively and as js/wasm under Node in one
# run, and prints each benchmark's wasm/native ratio (issue 6's target: 3x).
#
# Both test binaries are built first, then run ROUNDS times in alternation
# (native, wasm, native, wasm, ...), each run with -count=COUNT. A benchmark's
# time is its fastest count on each side: on a shared machine interference
# only ever adds time, and V8 needs the first count to tier up its code.
# allocs/op is exact and the same on both sides. The Platform benchmarks
# (internal/platform: plain Go, none of genplay's code) give the ratios of
# the operations the engine is made of, for comparison.
#
#   scripts/bench-ratio.sh                                 # the default set
#   BENCH='SelfHeal/namespaces=100$' ROUNDS=3 scripts/bench-ratio.sh
#   NATIVE_CPU=1 scripts/bench-ratio.sh                    # native on one thread too
#   BROWSER=1 scripts/bench-ratio.sh                       # wasm in headless Chromium too
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
BENCH=${BENCH:-'(SelfHeal|PolicyUpdate|GenerateExisting|PolicyDelete|CloneSourceUpdate|BackgroundScan)/namespaces=100$|ParsePolicy|RunSeed|Platform'}
PKGS=${PKGS:-./engine/ ./internal/platform/}
ROUNDS=${ROUNDS:-2}
COUNT=${COUNT:-3}
BENCHTIME=${BENCHTIME:-1s}
# The native benchmark runs with GOMAXPROCS = the machine's cores unless
# NATIVE_CPU says otherwise; wasm always has one thread.
NATIVE_CPU=${NATIVE_CPU:-$(nproc)}
# BROWSER=1 adds a third side: the wasm binary in headless Chromium, the
# browser engine the playground runs in (internal/chromiumexec).
BROWSER=${BROWSER:-}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exec_wasm="$("$GO" env GOROOT)/lib/wasm/go_js_wasm_exec"
[ -z "$BROWSER" ] || "$GO" build -o "$work/chromiumexec" ./internal/chromiumexec
for pkg in $PKGS; do
	name=$(basename "$pkg")
	"$GO" test -c -o "$work/$name.native" "$pkg"
	GOOS=js GOARCH=wasm "$GO" test -c -o "$work/$name.wasm" "$pkg"
done

args=(-test.run '^$' -test.bench "$BENCH" -test.benchmem -test.count "$COUNT" -test.benchtime "$BENCHTIME")
for round in $(seq "$ROUNDS"); do
	for pkg in $PKGS; do
		name=$(basename "$pkg")
		echo "round $round/$ROUNDS, $pkg: native (GOMAXPROCS=$NATIVE_CPU), then wasm" >&2
		(cd "$pkg" && "$work/$name.native" "${args[@]}" -test.cpu "$NATIVE_CPU") | sed 's/^/native /' >>"$work/out"
		(cd "$pkg" && "$exec_wasm" "$work/$name.wasm" "${args[@]}") | sed 's/^/wasm /' >>"$work/out"
		[ -z "$BROWSER" ] || "$work/chromiumexec" "$work/$name.wasm" "${args[@]}" | sed 's/^/chromium /' >>"$work/out"
	done
done

echo "# $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $("$GO" version | cut -d' ' -f3), node $(node --version)"
echo "# fastest of $((ROUNDS * COUNT)) counts each side, -benchtime $BENCHTIME, native GOMAXPROCS=$NATIVE_CPU"
awk '
	$2 ~ /^Benchmark/ {
		side = $1; name = $2; sub(/-[0-9]+$/, "", name)
		for (i = 3; i <= NF; i++) {
			if ($(i+1) == "ns/op") ns = $i
			if ($(i+1) == "allocs/op") allocs[name] = $i
		}
		key = side SUBSEP name
		if (!(key in best) || ns + 0 < best[key] + 0) best[key] = ns
		if (!(name in seen)) { seen[name] = 1; order[++n] = name }
	}
	END {
		printf "%-42s %13s %13s %7s %10s", "benchmark", "native ns/op", "node ns/op", "ratio", "allocs/op"
		if (browser) printf " %15s %7s", "chromium ns/op", "ratio"
		printf "\n"
		for (i = 1; i <= n; i++) {
			name = order[i]
			nat = best["native" SUBSEP name]; was = best["wasm" SUBSEP name]
			ratio = (nat > 0 && was > 0) ? sprintf("%.2fx", was / nat) : "-"
			printf "%-42s %13d %13d %7s %10s", name, nat, was, ratio, allocs[name]
			if (browser) {
				chr = best["chromium" SUBSEP name]
				printf " %15d %7s", chr, (nat > 0 && chr > 0) ? sprintf("%.2fx", chr / nat) : "-"
			}
			printf "\n"
		}
	}' browser="$BROWSER" "$work/out"
