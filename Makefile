# genplay: `make` lists the targets.
.DEFAULT_GOAL := help
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c

GO       ?= go
ADDR     ?= 127.0.0.1:8080
DIST     := site/dist
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
GOROOT   := $(shell $(GO) env GOROOT)
WASM     := GOOS=js GOARCH=wasm
# Runs js/wasm test binaries under Node with the toolchain's go_js_wasm_exec.
WASMTEST := PATH="$(GOROOT)/lib/wasm:$$PATH" $(WASM)
LDFLAGS  := -s -w -X github.com/genplay/genplay/wasm/bridge.Version=$(VERSION)
# Inlining is what makes Go fast as wasm (the engine's benchmarks run about
# 2x slower without it) and what makes the binary big (brotli 1.40 MB with
# none, 1.63 MB with all of it; the budget is 1.5 MB). So the site's wasm,
# and the worker's, inline everywhere except in these packages: large, and
# off the path of an event (parsing and validating what the user typed,
# formatting, the facade).
# Measured 2026-11-30: brotli 1.49 MB, the benchmarks at the speed of full
# inlining. When `make size` fails, add a package here, not all=-l.
# 2026-12-01: engine/source (YAML reading and rendering) added when policy
# validation of variables and selectors took the wasm to 1,504,835 bytes:
# 1,494,412 without its inlining; SelfHeal/namespaces=100 as wasm 0.98 vs
# 0.99 ms (same run), so the event path did not slow down measurably.
# 2026-12-01 (issue 17's work budget, +21 KB brotli): engine/source, timeline,
# internal/nesting, internal/k8sname, context and sort added; the engine's wasm
# benchmarks SelfHeal, CloneSourceUpdate and RunSeed under Node took 0.96x the
# CPU time with engine/source cold (paired runs): no measurable cost.
# 2026-12-01, after this round's merges: 1.58 MB with the list above
# (1.48 MB with no inlining at all: the code itself grew, chiefly the
# script interpreter's shell, +0.3 MB raw). The packages from kubectl on
# below were added, runtime and the hot engine packages among them: 1.49 MB.
# That costs the event path about 2x as wasm under Node (same run, 200
# iterations: PolicyUpdate/namespaces=100 25-29 ms -> 52-53 ms, RunSeed
# 2.9-3.3 -> 4.5 ms); runtime and the standard library alone make 1.7x of
# it. Winning inlining back means making the core's code smaller.
# 2026-12-01, evening: one random(pattern) generator for both families
# (engine/internal/regen) took the core to 1,502,924 bytes (brotli moves by
# kilobytes for a few hundred bytes of code). engine/cluster added:
# 1,482,333. Paired wasm benchmarks under Node (30 iterations, a loaded
# machine) showed no slowdown above the noise (PolicyUpdate/100 325/551 ms
# hot vs 395/292 ms cold), allocations +3.5%.
# 2026-12-02: the shell (engine/shell, kubectl's simulation for script steps,
# 658 KB of code) left the core build (engine.Options.Scripts; the full and
# tools builds have it): 1,536,428 -> 1,406,048 bytes brotli. The list below
# is unchanged; its engine/shell entry now concerns the full build only.
WASMCOLD := go.yaml.in/yaml/v3 encoding/json encoding/base64 encoding/hex math/big \
	regexp regexp/syntax fmt reflect internal/reflectlite time unicode errors io io/fs path bufio \
	os syscall syscall/js crypto/... github.com/hack-pad/safejs/... github.com/kyverno/go-jmespath \
	github.com/genplay/genplay/engine github.com/genplay/genplay/engine/scenario \
	github.com/genplay/genplay/engine/policy github.com/genplay/genplay/engine/assert \
	github.com/genplay/genplay/engine/conditions github.com/genplay/genplay/engine/internal/quantity \
	github.com/genplay/genplay/engine/internal/semver github.com/genplay/genplay/wasm/... \
	github.com/genplay/genplay/engine/shell github.com/genplay/genplay/engine/rbac github.com/genplay/genplay/engine/source \
	github.com/genplay/genplay/engine/internal/schema github.com/genplay/genplay/engine/timeline \
	strconv internal/strconv strings bytes sort slices unicode/utf8 math sigs.k8s.io/yaml/... go.yaml.in/yaml/v2 \
	runtime internal/runtime/... github.com/genplay/genplay/engine/variables github.com/genplay/genplay/engine/match \
	github.com/genplay/genplay/engine/generate github.com/genplay/genplay/engine/policy/controller \
	github.com/genplay/genplay/engine/admission \
	github.com/genplay/genplay/engine/internal/nesting github.com/genplay/genplay/engine/internal/k8sname context \
	github.com/genplay/genplay/engine/internal/regen github.com/genplay/genplay/engine/cluster
WASMGCFLAGS := $(foreach p,$(WASMCOLD),-gcflags=$(p)=-l)
# The full build (wasm/families_cel.go: -tags cel) adds the CEL family; its
# budget is 3.5 MB brotli. Measured 2026-12-01 (with the list of 11-30):
# 3.87 MB with cel-go and its dependencies cold too, 3.67 MB with no
# inlining at all; crypto/x509 (x509.decode) alone is 0.41 MB of it, so no js
# build has it: both families' x509 functions are native only, by GOOS
# (engine/doc.go lists the difference).
# 2026-12-01 (issue 13, the playground's migrate tool): engine/migrate, the
# converter, is authoring code run once per click: cold, it adds 61 KB brotli
# to the full build (3,333,686 -> 3,394,964 bytes) instead of 100 KB.
# 2026-12-01 (issue 15): engine/scaffold (the wrap tool) and engine/export
# likewise: scaffold cold took 3,394,911 -> 3,382,458 bytes.
WASMCOLDCEL := $(WASMCOLD) github.com/google/cel-go/... google.golang.org/protobuf/... github.com/antlr4-go/antlr/v4 \
	golang.org/x/text/... golang.org/x/exp/... github.com/genplay/genplay/engine/gpol/... github.com/genplay/genplay/engine/migrate \
	github.com/genplay/genplay/engine/scaffold github.com/genplay/genplay/engine/export
WASMGCFLAGSCEL := $(foreach p,$(WASMCOLDCEL),-gcflags=$(p)=-l)
WASMTAGSCEL := cel
# The tools build (wasm/build_tools.go: -tags cel,tools) is the full build
# and the authoring tools (convert, export, wrap and new: wasm/authoring),
# fetched only when the page calls a tool; its budget is 3.7 MB brotli.
# 2026-12-02: the tools moved out of the full build, which was over its
# budget: 3,542,850 -> 3,375,181 bytes brotli without them (same version
# string), 168 KB.
WASMTAGSTOOLS := cel,tools

# Intermediate outputs of `make site` (gitignored): the two wasm builds, the
# genplay binary `make serve` runs, the version they were built with. Make
# rebuilds each only when its inputs changed, so a second `make serve`
# starts in seconds; the first one compiles everything (about 3 minutes on
# an idle 2-core machine, 6-10 when it is busy).
BUILD    := site/build
# Inputs of the Go builds: the module's non-test Go files and what they embed.
GOSRC    := $(shell find api cmd engine internal wasm site -name '*.go' -not -name '*_test.go' -not -path '*/testdata/*' -not -path 'site/node_modules/*') \
	$(wildcard site/examples/*.yaml site/examples/*.json) go.mod go.sum

.PHONY: help test vet lint site serve size size-by-package bench bench-ratio screenshot screenshots worker fuzz load tidy-check clean differential policy-library \
	oracle oracle-down oracle-status oracle-test oracle-record oracle-bin oracle-exports
FUZZTIME ?= 30s

help: ## list the targets
	@echo "genplay: a simulator of Kyverno generate rules, with a browser playground"
	@echo
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

# Every package has an explicit timeout: the browser tests (site/) take 4-5
# minutes on an idle 2-core machine and over 20 when the machine is shared,
# and Go's default of 10 minutes was hit. Fuzz targets run their seed corpora here (plain go
# test does: the f.Add seeds and testdata/fuzz/); random exploration is
# `make fuzz`, never the gate.
TESTTIMEOUT ?= 40m
test: vet lint site ## everything CI runs: vet, staticcheck and unreachable code, Go tests (with the browser tests and the fuzz seeds), engine tests as wasm under Node
	$(GO) test -count=1 -timeout $(TESTTIMEOUT) ./...
	cd oracle && $(GO) test -count=1 ./...
	$(WASMTEST) $(GO) test -count=1 -timeout $(TESTTIMEOUT) ./engine/... ./wasm/... ./site/examples/
	$(MAKE) --no-print-directory size
	$(MAKE) --no-print-directory worker
	node --test cmd/worker/ site/src/
	$(MAKE) --no-print-directory tidy-check

tidy-check: ## fail when go mod tidy would change go.mod or go.sum (the product's module, and the oracle's)
	$(GO) mod tidy -diff
	cd oracle && $(GO) mod tidy -diff

# gofmt, and staticcheck and deadcode at fixed versions, built into site/build/tools
# outside the product's go.mod (scripts/lint.sh says what each checks).
lint: ## gofmt; staticcheck natively and for js/wasm; fail on a function no program reaches (deadcode)
	GO=$(GO) scripts/lint.sh

vet: ## go vet natively and for js/wasm (and the oracle's module, natively)
	$(GO) vet ./...
	$(WASM) $(GO) vet ./...
	cd oracle && $(GO) vet ./...

site/node_modules/.package-lock.json: site/package.json site/package-lock.json
	cd site && npm ci --no-audit --no-fund

# The version the builds report; the file changes only when the version
# does, so that a build the version alone would change is redone then.
$(BUILD)/version: FORCE
	@mkdir -p $(BUILD); [ "$$(cat $@ 2>/dev/null)" = "$(VERSION)" ] || echo "$(VERSION)" >$@

$(BUILD)/genplay.wasm: $(GOSRC) $(BUILD)/version
	$(WASM) $(GO) build -trimpath $(WASMGCFLAGS) -ldflags="$(LDFLAGS)" -o $@ ./wasm

$(BUILD)/genplay-cel.wasm: $(GOSRC) $(BUILD)/version
	$(WASM) $(GO) build -tags $(WASMTAGSCEL) -trimpath $(WASMGCFLAGSCEL) -ldflags="$(LDFLAGS)" -o $@ ./wasm

$(BUILD)/genplay-tools.wasm: $(GOSRC) $(BUILD)/version
	$(WASM) $(GO) build -tags $(WASMTAGSTOOLS) -trimpath $(WASMGCFLAGSCEL) -ldflags="$(LDFLAGS)" -o $@ ./wasm

$(BUILD)/genplay: $(GOSRC)
	$(GO) build -trimpath -o $@ ./cmd/genplay

# aboutgen and fieldrefgen rewrite their file only when its content changes.
site/src/about.json: $(GOSRC)
	$(GO) run ./site/aboutgen

site/src/fieldref.json: $(GOSRC)
	$(GO) run ./site/fieldrefgen

site: site/node_modules/.package-lock.json $(BUILD)/genplay.wasm $(BUILD)/genplay-cel.wasm $(BUILD)/genplay-tools.wasm site/src/about.json site/src/fieldref.json ## build the playground into site/dist (the core, full and tools wasm, wasm_exec.js, bundled JS and CSS); only what changed
	mkdir -p $(DIST)
	cmp -s "$(GOROOT)/lib/wasm/wasm_exec.js" $(BUILD)/wasm_exec.js || cp "$(GOROOT)/lib/wasm/wasm_exec.js" $(BUILD)/wasm_exec.js
	cd site && node build.mjs

serve: site $(BUILD)/genplay ## build the playground and serve it and the API on http://127.0.0.1:8080/ (ADDR=host:port)
	@echo "genplay playground: http://$(ADDR)/"
	$(BUILD)/genplay serve --addr $(ADDR) --dir $(DIST)

FORCE:

size: ## report the wasm builds' raw, gzip and brotli sizes; fail when one is over its brotli budget (1.5 MB core, 3.5 MB full, 3.7 MB tools: site/size.mjs)
	node site/size.mjs $(DIST)

size-by-package: ## show which Go packages the core wasm's code comes from (TAGS=cel: the full build's, TAGS=cel,tools: the tools build's)
	mkdir -p $(DIST) && $(WASM) $(GO) build -tags '$(TAGS)' -trimpath -o $(DIST)/genplay-names.wasm.tmp ./wasm
	node site/wasm-packages.mjs $(DIST)/genplay-names.wasm.tmp; rm -f $(DIST)/genplay-names.wasm.tmp

screenshots: site ## run the browser tests saving their screenshots to site/test-output/ (GENPLAY_SCREENSHOTS=1)
	GENPLAY_SCREENSHOTS=1 $(GO) test -count=1 -timeout $(TESTTIMEOUT) ./site/

screenshot: site ## refresh the README's screenshot, docs/screenshot.png
	GENPLAY_SCREENSHOT=1 $(GO) test -count=1 -run '^TestREADMEScreenshot$$' ./site/

BENCH ?= .
bench: ## run the engine's benchmarks natively, then as wasm under Node (BENCH=regexp picks some)
	$(GO) test -run='^$$' -bench='$(BENCH)' -benchmem ./engine/...
	$(WASMTEST) $(GO) test -run='^$$' -bench='$(BENCH)' -benchmem ./engine/...

bench-ratio: ## wasm/native ratio of the engine's benchmarks, measured in one run (BENCH, ROUNDS, COUNT, BENCHTIME)
	GO=$(GO) scripts/bench-ratio.sh

worker: ## build the HTTP API for Cloudflare Workers into cmd/worker/build (deploy: cd cmd/worker && npx wrangler deploy)
	GO=$(GO) WASMGCFLAGS="$(WASMGCFLAGS)" cmd/worker/build.sh

fuzz: ## explore: every Go fuzz target for FUZZTIME each (default 30s); a finding is fixed and kept as a seed under testdata/fuzz
	FUZZTIME=$(FUZZTIME) GO=$(GO) scripts/fuzz.sh

load: ## load-test the HTTP API: 2,000 requests at concurrency 16 on loopback; p50/p99 in the log
	GENPLAY_LOAD=1 $(GO) test -count=1 -run TheAPIUnderFullLoad -v ./api/

KYVERNO_VERSION ?= v1.19.1
KYVERNO_CLI     ?= $(HOME)/.cache/genplay/kyverno-$(KYVERNO_VERSION)
DIFFERENTIAL    ?=
differential: ## compare genplay with Kyverno's CLI at KYVERNO_VERSION (genplay simulating the same release) on the corpus and random cases (builds the CLI into KYVERNO_CLI once; DIFFERENTIAL=-seed N -random N -run RE)
	GO=$(GO) KYVERNO_VERSION=$(KYVERNO_VERSION) scripts/kyverno-cli.sh $(KYVERNO_CLI)
	$(GO) run ./cmd/differential -kyverno $(KYVERNO_CLI)/kyverno -kyverno-version $(KYVERNO_VERSION) $(DIFFERENTIAL)

# The oracle: real Kyverno on a real kube-apiserver, here (oracle/, its own
# Go module; docs/oracle.md). VERSION=v1.19.1 on the command line picks
# Kyverno's version; ORACLE_INSTANCE=1 runs a second stack on other ports
# (two versions recorded side by side).
ORACLE_VERSION  := $(if $(filter command line,$(origin VERSION)),$(VERSION),v1.19.0)
ORACLE_CACHE    ?= $(HOME)/.cache/genplay/oracle
# The oracle command of this checkout (a build in another checkout does
# not replace it; the recorder's hooks run a copy of it made when a
# recording starts).
ORACLE_BIN      := $(BUILD)/oracle
ORACLE_INSTANCE ?= 0
ORACLE          = GENPLAY_ORACLE_CACHE=$(ORACLE_CACHE) $(ORACLE_BIN) -instance $(ORACLE_INSTANCE) -src oracle
# What oracle-record records: the gallery, genplay's own chainsaw tests,
# scenarios and behaviour cases (the cheat sheet's rows of SEMANTICS §2.5
# and GENERATING-POLICY §3.8, and what Kyverno's CLI found), from their
# files, and the cheat sheet's ClusterPolicy cases as genplay migrate
# converts them, which TestMigrationDocIsCurrent writes out
# (internal/oracle/corpus) into the instance's corpus folder.
# ORACLE_ONLY=regexp picks some (by path or recording name).
ORACLE_CORPUS   ?= site/examples engine/testdata/chainsaw engine/testdata/scenarios engine/testdata/cases
ORACLE_MADE     := $(ORACLE_CACHE)/corpus-$(ORACLE_INSTANCE)
ORACLE_ONLY     ?=
ORACLE_RUNS     ?= 2
# ORACLE_SCAN=2m starts the stack with that background scan interval in
# place of Kyverno's hour: oracle-record then records the scenarios that
# sleep through periodic scans (an hour or more; docs/oracle.md), and only them.
ORACLE_SCAN     ?=
ORACLE_UP       = -version $(ORACLE_VERSION)$(if $(ORACLE_SCAN), -scan-interval $(ORACLE_SCAN))

$(ORACLE_BIN): $(GOSRC) $(wildcard oracle/*.go) oracle/go.mod oracle/go.sum
	@mkdir -p $(@D)
	cd oracle && $(GO) build -o $(CURDIR)/$@ .

oracle-bin: $(ORACLE_BIN)

oracle: oracle-bin ## build (once, cached) and start real Kyverno (VERSION=v1.19.1) with etcd, kube-apiserver and kube-controller-manager on loopback
	GO=$(GO) GENPLAY_ORACLE_CACHE=$(ORACLE_CACHE) oracle/build.sh $(ORACLE_VERSION)
	$(ORACLE) up $(ORACLE_UP)
	$(ORACLE) status

oracle-down: oracle-bin ## stop the oracle's processes (by the PIDs it wrote)
	$(ORACLE) down

oracle-status: oracle-bin ## what the oracle runs: versions, PIDs, memory
	$(ORACLE) status

DIR ?=
oracle-test: oracle-bin ## run the chainsaw tests in DIR with real chainsaw against the live oracle (make oracle first)
	@test -n "$(DIR)" || { echo "usage: make oracle-test DIR=path/to/chainsaw/tests"; exit 2; }
	$(ORACLE) test $(DIR)

oracle-record: oracle-bin ## record what real Kyverno does with the corpus into testdata/oracle/VERSION (starts the oracle at VERSION)
	@$(ORACLE) running $(ORACLE_UP) 2>/dev/null || $(MAKE) --no-print-directory oracle VERSION=$(ORACLE_VERSION)
	rm -rf $(ORACLE_MADE) && mkdir -p $(ORACLE_MADE)
	GENPLAY_ORACLE_CORPUS=$(ORACLE_MADE) $(GO) test -count=1 -run MigrationDoc ./cmd/genplay/ > /dev/null
	$(ORACLE) record -out testdata/oracle/$(ORACLE_VERSION) -runs $(ORACLE_RUNS) -only '$(value ORACLE_ONLY)' $(ORACLE_CORPUS) $(ORACLE_MADE)
	$(GO) test -count=1 -run 'Kyverno|Recordings' -v ./internal/oracle/ | grep -E '^\s+oracle_test|agree|known difference|FAIL|ok' || true

oracle-exports: oracle-bin $(BUILD)/genplay ## genplay export the gallery and the cheat-sheet cases, then run the exports with real chainsaw against the live oracle
	rm -rf $(ORACLE_CACHE)/exports-$(ORACLE_INSTANCE) && mkdir -p $(ORACLE_CACHE)/exports-$(ORACLE_INSTANCE)
	@n=0; for f in site/examples/*.yaml $$(find engine/testdata/cases/cheatsheet -name '*.yaml' | sort); do \
		name=$$(echo "$${f#engine/testdata/cases/}" | sed 's#^site/examples/#example-#; s#\.yaml$$##; s#/#-#g'); \
		if ! echo "$$name" | grep -Eq '$(or $(value ORACLE_ONLY),.)'; then :; \
		elif grep -Eq 'duration: *"?[0-9.]+h' $$f; then echo "not exported (sleeps an hour or more, which real chainsaw would sleep; make oracle-record ORACLE_SCAN=2m records it): $$f"; \
		else \
			mkdir -p $(ORACLE_CACHE)/exports-$(ORACLE_INSTANCE)/$$name; \
			$(BUILD)/genplay export --permissions kyverno-e2e -o $(ORACLE_CACHE)/exports-$(ORACLE_INSTANCE)/$$name/chainsaw-test.yaml $$f 2>/dev/null \
				&& n=$$((n+1)) || { echo "not exported (genplay export refused it): $$f"; rm -rf $(ORACLE_CACHE)/exports-$(ORACLE_INSTANCE)/$$name; }; \
		fi; done; echo "$$n exports in $(ORACLE_CACHE)/exports-$(ORACLE_INSTANCE)"
	$(ORACLE) test $(ORACLE_CACHE)/exports-$(ORACLE_INSTANCE)

POLICIES ?=
LIBRARY  ?=
policy-library: ## run genplay test on Kyverno's policy library checked out at POLICIES, as its CI runs it (LIBRARY=--report-format JUNIT-TEST ...)
	@test -n "$(POLICIES)" || { echo "make policy-library POLICIES=/path/to/a/checkout/of/github.com/kyverno/policies" >&2; exit 2; }
	GO=$(GO) scripts/policy-library.sh $(POLICIES) $(LIBRARY)

clean: ## remove build outputs
	rm -rf $(DIST) $(BUILD) site/test-output cmd/worker/build
