#!/usr/bin/env bash
# Builds the oracle's stack from the Go module proxy into a cache outside
# the repository (GENPLAY_ORACLE_CACHE, default ~/.cache/genplay/oracle):
#
#   kubernetes-<the version Kyverno uses>/{kube-apiserver,kube-controller-manager,kubectl}
#   etcd-v3.6.8/etcd
#   kyverno-<version>/{kyverno,background-controller,cleanup-controller},
#     its manifests and kubernetes-version (the Kubernetes it runs on)
#   chainsaw-v0.2.14/chainsaw
#
# Usage: oracle/build.sh [kyverno VERSION...] (default: v1.19.0). A component
# already built is not built again; each build's time is appended to
# $CACHE/builds.log. Nothing here enters genplay's module graph: every build
# runs in a copy of the module, outside the repository, with GOWORK=off.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/versions.sh"
CACHE=${GENPLAY_ORACLE_CACHE:-$HOME/.cache/genplay/oracle}
GO=${GO:-go}
mkdir -p "$CACHE/src"
export GOWORK=off CGO_ENABLED=0 GOFLAGS=-buildvcs=false
NICE=${ORACLE_NICE:-nice -n 10}
# Parallel compiles: at nice 10 each weighs about a tenth of a normal
# process, so six of them together still yield to any one of the machine's
# normal processes, and the build is not starved on a loaded machine.
export GOFLAGS="$GOFLAGS -p=${ORACLE_BUILD_P:-6}"

log() { echo "oracle/build: $*" >&2; }

# copy_module MODULE@VERSION DEST: the module's source, writable, outside the module cache.
copy_module() {
	local mod=$1 dest=$2
	[[ -d $dest ]] && return 0
	local dir
	dir=$($GO mod download -json "$mod" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	[[ -n $dir ]] || { log "go mod download $mod gave no Dir"; return 1; }
	cp -r "$dir" "$dest.tmp" && chmod -R u+w "$dest.tmp" && mv "$dest.tmp" "$dest"
}

# timed NAME COMMAND...: runs the command, logging its wall time and peak memory.
timed() {
	local name=$1; shift
	local start=$SECONDS
	log "building $name"
	/usr/bin/time -f "%M" -o "$CACHE/.maxrss-$name" "$@"
	echo "$(date -u +%FT%TZ) $name $((SECONDS - start))s maxrss=$(cat "$CACHE/.maxrss-$name")KiB load=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$CACHE/builds.log"
	rm -f "$CACHE/.maxrss-$name"
}

# kubernetes_for VERSION: the Kubernetes release whose libraries Kyverno
# VERSION requires (its go.mod's k8s.io/client-go v0.N.M is v1.N.M), or
# $K8S_VERSION when set.
kubernetes_for() {
	if [[ -n ${K8S_VERSION:-} ]]; then echo "$K8S_VERSION"; return; fi
	local gomod v
	gomod=$($GO mod download -json "github.com/kyverno/kyverno@$1" | sed -n 's/^\t"GoMod": "\(.*\)",$/\1/p')
	v=$(sed -n 's#^\tk8s.io/client-go v0\.\([0-9]*\.[0-9]*\)$#\1#p' "$gomod")
	[[ -n $v ]] || { log "no k8s.io/client-go in $gomod"; return 1; }
	echo "v1.$v"
}

# build_kubernetes VERSION: kube-apiserver, kube-controller-manager and
# kubectl at Kubernetes VERSION.
build_kubernetes() {
	local K8S_VERSION=$1
	local minor=${K8S_VERSION#v1.}
	local K8S_MAJOR=1 K8S_MINOR=${minor%%.*}
	local out=$CACHE/kubernetes-$K8S_VERSION
	[[ -x $out/kube-apiserver && -x $out/kube-controller-manager && -x $out/kubectl ]] && return 0
	local src=$CACHE/src/kubernetes-$K8S_VERSION
	copy_module "k8s.io/kubernetes@$K8S_VERSION" "$src"
	(
		cd "$src"
		rm -f go.work go.work.sum
		rm -rf vendor
		# The module's go.mod replaces each k8s.io staging module with
		# ./staging/src/..., which the module zip does not contain: require the
		# published k8s.io/X v0.N.M instead.
		local staging
		staging=$(sed -n 's#^\t\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p' go.mod)
		local args=()
		for m in $staging; do
			args+=(-dropreplace="$m")
			# Only the ones it requires (sample-cli-plugin, for one, is not
			# published at every version).
			if grep -q "^	$m v0.0.0" go.mod; then args+=(-require="$m@${K8S_VERSION/v1./v0.}"); fi
		done
		[[ ${#args[@]} -eq 0 ]] || $GO mod edit "${args[@]}" # done already when a build is resumed
		$GO mod download
		local ld="-s -w"
		for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
			ld+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=${K8S_MAJOR} -X $pkg.gitMinor=${K8S_MINOR}"
			ld+=" -X $pkg.gitTreeState=clean -X $pkg.gitCommit=$K8S_VERSION -X $pkg.buildDate=1970-01-01T00:00:00Z"
		done
		mkdir -p "$out.tmp"
		for cmd in kube-apiserver kube-controller-manager kubectl; do
			[[ -x $out.tmp/$cmd ]] && continue
			timed "$cmd-$K8S_VERSION" $NICE $GO build -mod=mod -trimpath -ldflags="$ld" -o "$out.tmp/$cmd" "./cmd/$cmd"
		done
	)
	mv "$out.tmp" "$out"
}

build_etcd() {
	local out=$CACHE/etcd-$ETCD_VERSION
	[[ -x $out/etcd ]] && return 0
	local src=$CACHE/src/etcd-$ETCD_VERSION
	mkdir -p "$src"
	(
		cd "$src"
		cat > main.go <<'GO'
// Command etcd is etcd's server, built from its module.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
		[[ -f go.mod ]] || $GO mod init oracle/etcd >/dev/null 2>&1
		$GO get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >/dev/null 2>&1
		$GO mod tidy >/dev/null 2>&1
		mkdir -p "$out.tmp"
		timed "etcd-$ETCD_VERSION" $NICE $GO build -trimpath -ldflags="-s -w" -o "$out.tmp/etcd" .
	)
	mv "$out.tmp" "$out"
}

build_kyverno() {
	local version=$1
	local out=$CACHE/kyverno-$version
	# The cleanup controller only with ORACLE_CLEANUP=1 (no generate scenario
	# needs it; CleanupPolicies and TTL labels do).
	local cmds=(kyverno background-controller)
	[[ ${ORACLE_CLEANUP:-0} == 1 ]] && cmds+=(cleanup-controller)
	local have=1
	for cmd in "${cmds[@]}"; do [[ -x $out/$cmd ]] || have=0; done
	if [[ $have == 1 ]]; then
		[[ -s $out/kubernetes-version ]] || kubernetes_for "$version" > "$out/kubernetes-version"
		return 0
	fi
	local src=$CACHE/src/kyverno-$version
	copy_module "github.com/kyverno/kyverno@$version" "$src"
	(
		cd "$src"
		rm -f go.work go.work.sum
		local ld="-s -w -X github.com/kyverno/kyverno/pkg/version.BuildVersion=$version"
		[[ -d $out ]] && cp -r "$out/." "$out.tmp/" 2>/dev/null
		mkdir -p "$out.tmp"
		for cmd in "${cmds[@]}"; do
			[[ -x $out.tmp/$cmd ]] && continue
			# Without -trimpath, the packages of the module cache compile as
			# for Kyverno's CLI (scripts/kyverno-cli.sh) and share its cache.
			timed "kyverno-$cmd-$version" $NICE $GO build -mod=mod -ldflags="$ld" -o "$out.tmp/$cmd" "./cmd/$cmd"
		done
		cp config/install-latest-testing.yaml "$out.tmp/"
		kubernetes_for "$version" > "$out.tmp/kubernetes-version"
		rm -rf "$out.tmp/crds" && cp -r config/crds "$out.tmp/crds"
	)
	rm -rf "$out" && mv "$out.tmp" "$out"
}

build_chainsaw() {
	local out=$CACHE/chainsaw-$CHAINSAW_VERSION
	[[ -x $out/chainsaw ]] && return 0
	local src=$CACHE/src/chainsaw-$CHAINSAW_VERSION
	copy_module "github.com/kyverno/chainsaw@$CHAINSAW_VERSION" "$src"
	(
		cd "$src"
		# Go 1.26 added ModulePath to testing's testDeps; chainsaw's own
		# implementation of it predates that.
		local f=pkg/runner/internal/test_deps.go
		grep -q 'ModulePath' "$f" || printf '\nfunc (*TestDeps) ModulePath() string { return "" }\n' >> "$f"
		mkdir -p "$out.tmp"
		timed "chainsaw-$CHAINSAW_VERSION" $NICE $GO build -mod=mod -trimpath \
			-ldflags="-s -w -X github.com/kyverno/chainsaw/pkg/version.BuildVersion=$CHAINSAW_VERSION" -o "$out.tmp/chainsaw" .
	)
	mv "$out.tmp" "$out"
}

versions=("$@")
[[ ${#versions[@]} -gt 0 ]] || versions=(v1.19.0)
# ORACLE_BUILD_ONLY=etcd|chainsaw|kubernetes|kyverno builds one component (two
# builds may then run side by side).
case ${ORACLE_BUILD_ONLY:-all} in
etcd) build_etcd ;;
chainsaw) build_chainsaw ;;
kubernetes) for v in "${versions[@]}"; do build_kubernetes "$(kubernetes_for "$v")"; done ;;
kyverno) for v in "${versions[@]}"; do build_kyverno "$v"; done ;;
all)
	build_etcd
	build_chainsaw
	for v in "${versions[@]}"; do build_kubernetes "$(kubernetes_for "$v")"; done
	for v in "${versions[@]}"; do build_kyverno "$v"; done
	;;
*) log "ORACLE_BUILD_ONLY=$ORACLE_BUILD_ONLY: want etcd, chainsaw, kubernetes or kyverno"; exit 2 ;;
esac
log "ready in $CACHE"
