#!/usr/bin/env bash
# Measures the engine's benchmarks natively and as js/wasm under Node in one
# run, and prints each benchmark's wasm/native ratio (issue 6's target: 3x).
#
# Both test binaries are built first, then run ROUNDS times in alternation
# (native, wasm, native, wasm, ...), each run with -count=COUNT. A benchmark's
# time is its fastest count on each side: on a shared machine interference
# only ever adds time, and V8 needs the first count to tier up its code.
# allocs/op is exact and the same on both sides.
#
#   scripts/bench-ratio.sh                                 # the default set
#   BENCH='SelfHeal/namespaces=100$' ROUNDS=3 scripts/bench-ratio.sh
#   NATIVE_CPU=1 scripts/bench-ratio.sh                    # native on one thread too
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
BENCH=${BENCH:-'(SelfHeal|PolicyUpdate|GenerateExisting|PolicyDelete|CloneSourceUpdate|BackgroundScan)/namespaces=100$|ParsePolicy|RunSeed'}
ROUNDS=${ROUNDS:-2}
COUNT=${COUNT:-3}
BENCHTIME=${BENCHTIME:-1s}
# The native benchmark runs with GOMAXPROCS = the machine's cores unless
# NATIVE_CPU says otherwise; wasm always has one thread.
NATIVE_CPU=${NATIVE_CPU:-$(nproc)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$GO" test -c -o "$work/native.test" ./engine/
GOOS=js GOARCH=wasm "$GO" test -c -o "$work/wasm.test" ./engine/
exec_wasm="$("$GO" env GOROOT)/lib/wasm/go_js_wasm_exec"

args=(-test.run '^$' -test.bench "$BENCH" -test.benchmem -test.count "$COUNT" -test.benchtime "$BENCHTIME")
for round in $(seq "$ROUNDS"); do
	echo "round $round/$ROUNDS: native (GOMAXPROCS=$NATIVE_CPU)" >&2
	(cd engine && "$work/native.test" "${args[@]}" -test.cpu "$NATIVE_CPU") | sed 's/^/native /' >>"$work/out"
	echo "round $round/$ROUNDS: wasm" >&2
	(cd engine && "$exec_wasm" "$work/wasm.test" "${args[@]}") | sed 's/^/wasm /' >>"$work/out"
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
		printf "%-44s %14s %14s %7s %10s\n", "benchmark", "native ns/op", "wasm ns/op", "ratio", "allocs/op"
		for (i = 1; i <= n; i++) {
			name = order[i]
			nat = best["native" SUBSEP name]; was = best["wasm" SUBSEP name]
			ratio = (nat > 0 && was > 0) ? sprintf("%.2fx", was / nat) : "-"
			printf "%-44s %14d %14d %7s %10s\n", name, nat, was, ratio, allocs[name]
		}
	}' "$work/out"
