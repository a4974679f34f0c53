#!/usr/bin/env bash
# The static checks `make test` runs (`make lint`):
#
#   - gofmt: every Go file the repository tracks (the product's module and
#     the oracle's) is formatted as gofmt formats it; the failure lists the
#     files and the command that fixes them.
#   - staticcheck (honnef.co/go/tools) over the module natively, and for
#     js/wasm without tags and with cel,tools (the browser's core build
#     and its tools build, a superset of the full one; the worker), the
#     runs merged (-merge). The oracle's module (a harness, not the product)
#     is vetted, not held to staticcheck.
#   - unreachable code (golang.org/x/tools/cmd/deadcode): a function of the
#     module that no program reaches, neither a native one (cmd/..., the
#     generators under site/, the oracle's module) nor the full js/wasm
#     build (wasm/ and cmd/worker/ with -tags cel,tools). deadcode answers for one
#     build configuration, so it runs once per configuration and a function
#     is dead when every run says so. Test helpers are left out: packages
#     no program imports (internal/testenv, engine/hostile,
#     internal/junitxml) and packages that import testing
#     (internal/oracle/corpus); staticcheck's unused check covers them.
#
# Both tools are built at a fixed version into TOOLS (default
# site/build/tools, gitignored) with `go install module@version`: they stay
# outside the product's go.mod, and a second run reuses the binaries.
#
#   scripts/lint.sh              # all three checks
#   scripts/lint.sh staticcheck  # one of them
#   scripts/lint.sh deadcode
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C # sort and join agree on the order
GO=${GO:-go}
STATICCHECK_VERSION=${STATICCHECK_VERSION:-v0.8.2}
DEADCODE_VERSION=${DEADCODE_VERSION:-v0.52.0}
TOOLS=${TOOLS:-$PWD/site/build/tools}
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(gofmt staticcheck deadcode)

# tool NAME MODULE/CMD VERSION: the binary, built once per version.
tool() {
	local bin="$TOOLS/$1-$3"
	if [ ! -x "$bin" ]; then
		mkdir -p "$TOOLS/$1.tmp"
		GOBIN="$TOOLS/$1.tmp" GOOS= GOARCH= GOFLAGS= "$GO" install "$2@$3" >&2
		mv "$TOOLS/$1.tmp/$1" "$bin" && rmdir "$TOOLS/$1.tmp"
	fi
	echo "$bin"
}

gofmt() {
	echo "gofmt: the tracked Go files"
	local unformatted
	# gofmt of the toolchain that builds the module (GO may name another go).
	unformatted=$(git ls-files -z '*.go' | xargs -0 "$("$GO" env GOROOT)/bin/gofmt" -l)
	if [ -n "$unformatted" ]; then
		printf '%s\n' "$unformatted" >&2
		echo "gofmt: the files above are not formatted; run: gofmt -w $(echo $unformatted)" >&2
		return 1
	fi
}

staticcheck() {
	local sc
	sc=$(tool staticcheck honnef.co/go/tools/cmd/staticcheck "$STATICCHECK_VERSION")
	echo "staticcheck $STATICCHECK_VERSION: native, js/wasm, js/wasm -tags cel,tools"
	# One run per configuration, merged: code is unused (U1000) only when
	# no configuration uses it (a field only native files read is used);
	# any other finding of any run is reported.
	"$sc" -f binary ./... >"$tmp/native.sc"
	GOOS=js GOARCH=wasm "$sc" -f binary ./... >"$tmp/js.sc"
	GOOS=js GOARCH=wasm "$sc" -tags cel,tools -f binary ./... >"$tmp/cel.sc"
	"$sc" -merge "$tmp/native.sc" "$tmp/js.sc" "$tmp/cel.sc"
}

deadcode() {
	local dc
	dc=$(tool deadcode golang.org/x/tools/cmd/deadcode "$DEADCODE_VERSION")
	echo "deadcode $DEADCODE_VERSION: functions no program reaches (native, the oracle's module, js/wasm -tags cel,tools)"
	local module
	module=$("$GO" list -m)
	# One line a dead function: package.Func file:line:col (paths from the
	# module's root).
	local f='{{range .Funcs}}{{$.Path}}.{{.Name}} {{.Position}}{{"\n"}}{{end}}'
	"$dc" -f "$f" ./... | sort >"$tmp/native"
	GOOS=js GOARCH=wasm "$dc" -tags cel,tools -f "$f" ./... | sort >"$tmp/js"
	(cd oracle && "$dc" -filter "^$module(/|\$)" -f "$f" ./...) | sort >"$tmp/oracle"
	# The packages some program imports, test helpers aside.
	local mains='{{if eq .Name "main"}}{{.ImportPath}}{{end}}'
	local deps='{{if not .Standard}}{{.ImportPath}}{{end}}'
	{
		"$GO" list -deps -f "$deps" $("$GO" list -f "$mains" ./...)
		GOOS=js GOARCH=wasm "$GO" list -tags cel,tools -deps -f "$deps" $(GOOS=js GOARCH=wasm "$GO" list -tags cel,tools -f "$mains" ./...)
		(cd oracle && "$GO" list -deps -f "$deps" $("$GO" list -f "$mains" ./...))
	} | sort -u >"$tmp/imported"
	"$GO" list -f '{{range .Imports}}{{if eq . "testing"}}{{$.ImportPath}}{{"\n"}}{{end}}{{end}}' ./... | sort -u >"$tmp/helpers"
	comm -23 "$tmp/imported" "$tmp/helpers" >"$tmp/programs"
	# Dead in every configuration, in a package a program imports, and not
	# kept on purpose (scripts/deadcode.keep: a function a line, with why).
	grep -v '^#' scripts/deadcode.keep | cut -d' ' -f1 | sort -u >"$tmp/keep"
	join <(cut -d' ' -f1 "$tmp/js") <(cut -d' ' -f1 "$tmp/oracle") >"$tmp/both"
	join "$tmp/both" "$tmp/native" | awk 'FILENAME == ARGV[1] { keep[$1] = 1; next } FILENAME == ARGV[2] { prog[$1] = 1; next }
		{ pkg = $1; sub(/\.[^.\/]*(\.[^.\/]*)?$/, "", pkg) } prog[pkg] && !keep[$1] { print $2 ": unreachable func: " $1; n++ }
		END { exit n > 0 }' "$tmp/keep" "$tmp/programs" - || {
		echo "deadcode: the functions above are reached by no program: delete them, or move what only tests use into a _test.go file" >&2
		return 1
	}
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in "${checks[@]}"; do
	case "$c" in
	gofmt | staticcheck | deadcode) "$c" ;;
	*)
		echo "lint.sh: unknown check $c (gofmt, staticcheck, deadcode)" >&2
		exit 2
		;;
	esac
done
