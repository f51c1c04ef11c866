# gatedcrd: regenerate with `make update`, prove nothing is stale with
# `make verify`, run every test with `make test`.

GO          ?= go
BIN         := $(CURDIR)/bin
CODEGEN     := $(BIN)/codegen
APITEST     := $(BIN)/apitest
CONTROLLER_GEN := $(BIN)/controller-gen
# Restrict the CRD stages to some group-versions, e.g.
#   make update-codegen-crds API_GROUP_VERSIONS=example.openshift.io/v1
API_GROUP_VERSIONS ?=
CODEGEN_FLAGS := --base-dir . $(if $(API_GROUP_VERSIONS),--api-group-versions $(API_GROUP_VERSIONS))

.PHONY: all update verify test bench build \
	update-deepcopy update-payload-featuregates update-codegen-crds \
	verify-payload-featuregates verify-codegen-crds verify-gofmt verify-tidy verify-test-suites update-test-suite-stubs \
	update-payload-crds verify-payload-crds update-compatibility verify-compatibility conformance-housekeeping \
	update-layout verify-layout \
	conformance-dropin conformance-optin update-cli-reference verify-cli-reference \
	test-root test-tools test-apitest fuzz conformance conformance-suites apitest-matrix \
	apitest-operator-matrix-build apitest-operator-matrix $(CODEGEN) $(APITEST) $(CONTROLLER_GEN)

all: update

build: $(CODEGEN)

# go build is incremental, so these always run and cost little when nothing changed.
$(CODEGEN):
	$(GO) -C tools build -o $(CODEGEN) ./cmd/codegen

$(APITEST):
	$(GO) -C apitest build -o $(APITEST) ./cmd/apitest

$(CONTROLLER_GEN):
	$(GO) -C tools build -o $(CONTROLLER_GEN) sigs.k8s.io/controller-tools/cmd/controller-gen

## update: regenerate everything (deepcopy, payload FeatureGates, features.md, CRD manifests)
update: update-deepcopy update-compatibility update-codegen-crds update-cli-reference update-layout

## update-cli-reference: docs/cli-reference.md, the --help of every codegen command, apitest and write-available-featuresets
update-cli-reference:
	$(GO) -C tools run ./cmd/clidoc

verify-cli-reference:
	$(GO) -C tools run ./cmd/clidoc -verify

## update-layout: the package tables of docs/layout.md, from each package's doc comment
update-layout:
	$(GO) -C tools run ./cmd/layoutdoc

verify-layout:
	$(GO) -C tools run ./cmd/layoutdoc -verify

## update-compatibility: the "Compatibility level N" line of every type embedding TypeMeta
## (crd-manifests also does it when .gatedcrd.yaml enables compatibility)
update-compatibility: $(CODEGEN)
	$(CODEGEN) compatibility $(CODEGEN_FLAGS)

update-deepcopy: $(CONTROLLER_GEN)
	hack/update-deepcopy.sh $(CONTROLLER_GEN)

## update-payload-featuregates: render payload-manifests/featuregates/ and features.md from features/
update-payload-featuregates:
	$(GO) run ./features/cmd/write-available-featuresets

## update-codegen-crds: payload FeatureGates, then every CRD stage in one process, then the payload CRD copy
update-codegen-crds: update-payload-featuregates $(CODEGEN)
	$(CODEGEN) crd-manifests $(CODEGEN_FLAGS)
	$(CODEGEN) payload-crds --base-dir .

## update-payload-crds: copy the CRDs selected in .gatedcrd.yaml to payload-manifests/crds/
update-payload-crds: $(CODEGEN)
	$(CODEGEN) payload-crds --base-dir .

## verify: fail if any generated file is stale; writes nothing
verify: verify-gofmt verify-payload-featuregates verify-compatibility verify-codegen-crds verify-test-suites verify-payload-crds verify-cli-reference verify-layout verify-tidy

## verify-tidy: go mod tidy would change no go.mod or go.sum of the three modules
verify-tidy:
	@for m in . tools apitest; do \
	  [ -f $$m/go.mod ] || continue; \
	  $(GO) -C $$m mod tidy -diff || { echo "go mod tidy would change module $$m (diff above); run: go -C $$m mod tidy" >&2; exit 1; }; \
	done

verify-gofmt:
	hack/verify-gofmt.sh

verify-payload-featuregates:
	$(GO) run ./features/cmd/write-available-featuresets --verify

verify-codegen-crds: $(CODEGEN)
	$(CODEGEN) crd-manifests --verify $(CODEGEN_FLAGS)

verify-compatibility: $(CODEGEN)
	$(CODEGEN) compatibility --verify $(CODEGEN_FLAGS)

## verify-payload-crds: payload-manifests/crds/ holds exactly the selected, current copies
verify-payload-crds: $(CODEGEN)
	$(CODEGEN) payload-crds --verify --base-dir .

## verify-test-suites: every partial manifest <X>.yaml has an API test suite <X>.yaml or <X>.testsuite.yaml
verify-test-suites: $(CODEGEN)
	$(CODEGEN) test-suites --verify $(CODEGEN_FLAGS)

## update-test-suite-stubs: write a starting-point suite for each partial manifest without one
update-test-suite-stubs: $(CODEGEN)
	$(CODEGEN) test-suites $(CODEGEN_FLAGS)

## conformance-housekeeping: compatibility, payload CRDs and required annotations
## on a real API tree fetched from the module proxy (hack/conformance-housekeeping.sh)
conformance-housekeeping: $(CODEGEN)
	GO=$(GO) hack/conformance-housekeeping.sh $(CODEGEN)

## test: every Go test of every module, then short fuzz runs
test: test-root test-tools test-apitest fuzz

## fuzz: run every fuzz target for a fixed number of inputs (seed corpora also run in plain go test)
# Each budget is a count of inputs, about 10 s of fuzzing on the 2-core CI
# machine, not a duration: with a duration, Go's fuzzing coordinator can
# see its deadline pass before the workers' context says so, and fails
# the target with "context deadline exceeded" although no input failed
# (seen in CI on FuzzOverride and FuzzMarshal). A count sets no deadline.
# FUZZSCALE multiplies every budget (make fuzz FUZZSCALE=10 for a longer run).
FUZZSCALE ?= 1
# Minimisation of a new input is bounded by a count too, for the same
# reason and so that it cannot outlast the budget.
FUZZMINIMIZE ?= 20x
fuzz-budget = -fuzztime $$(( $(1) * $(FUZZSCALE) ))x -fuzzminimizetime $(FUZZMINIMIZE)
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseManifest$$' $(call fuzz-budget,100000) ./features/payload
	$(GO) -C tools test -run '^$$' -fuzz '^FuzzParseMarker$$' $(call fuzz-budget,100000) ./pkg/markerdefs
	$(GO) -C tools test -run '^$$' -fuzz '^FuzzOverride$$' $(call fuzz-budget,2000) ./pkg/manifestmerge
	$(GO) -C tools test -run '^$$' -fuzz '^FuzzMarshal$$' $(call fuzz-budget,50000) ./pkg/manifest
	$(GO) -C tools test -run '^$$' -fuzz '^FuzzParse$$' $(call fuzz-budget,50000) ./pkg/manifest

test-root:
	$(GO) test ./...

test-tools:
	GATEDCRD_TEST_KUBE_VERSIONS="$(TEST_KUBE_VERSIONS)" $(GO) -C tools test -timeout 30m ./...

# The API server programs and CRD validation programs of these Kubernetes
# versions are built (once, cached) and smoke-tested by make test; the
# linked version always runs. A
# cold build of one version takes minutes on 2 cores, hence the long timeout.
TEST_KUBE_VERSIONS ?= 1.32
test-apitest:
	@if [ -f apitest/go.mod ]; then GATEDCRD_TEST_KUBE_VERSIONS="$(TEST_KUBE_VERSIONS)" $(GO) -C apitest test -timeout 30m ./...; fi

## apitest-matrix: the example's API test suites on several Kubernetes versions
## in one command (apitest --kube-version 1.32,1.37 --base-dir .): one server
## per version, run concurrently, a closing table of suites × versions; the
## 1.32 server program is built on first use and cached
APITEST_MATRIX_VERSIONS ?= 1.32,1.37
apitest-matrix: $(APITEST)
	$(APITEST) --kube-version $(APITEST_MATRIX_VERSIONS) --base-dir .

## apitest-operator-matrix: the API test suites of the operator repository
## fixture (tests/<crd>/*.testsuite.yaml beside the generated CRDs and the
## pre-version payload in api/fleet/v1beta1) on two Kubernetes versions in
## one command, as such a repository's CI runs them
OPERATOR_REPO ?= tools/internal/e2e/testdata/operatorrepo
OPERATOR_MATRIX_VERSIONS ?= 1.30,1.32
apitest-operator-matrix: $(APITEST)
	$(APITEST) --kube-version $(OPERATOR_MATRIX_VERSIONS) --base-dir $(OPERATOR_REPO)

## apitest-operator-matrix-build: only build the API server programs of
## OPERATOR_MATRIX_VERSIONS (or find them cached), printing the time and size
## of each; CI runs it as a step of its own so that the build shows
apitest-operator-matrix-build: $(APITEST)
	$(APITEST) --kube-version $(OPERATOR_MATRIX_VERSIONS) --base-dir $(OPERATOR_REPO) --build-only

## conformance-suites: every API test suite of a real API repository against
## its committed CRDs, on the Kubernetes version it targets; all must pass
CONFORMANCE_MODULE ?= github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9
CONFORMANCE_KUBE_VERSION ?= 1.32
# The versions make bench runs the conformance corpus on, in one apitest
# command (docs/performance.md).
BENCH_KUBE_VERSIONS ?= 1.32-1.37
conformance-suites:
	GO=$(GO) hack/conformance-suites.sh $(CONFORMANCE_MODULE) $(CONFORMANCE_KUBE_VERSION)

## conformance: the drop-in runs, then the opted-in runs
conformance: conformance-dropin conformance-optin

## conformance-dropin: real openshift/api trees, the current one and one of
## the pre-version era, through their OWN hack/*.sh scripts with CODEGEN set
## to our binary and nothing added to the tree: every script exits 0 and the
## tree stays as committed (hack/dropin.sh, docs/zero-configuration.md); a
## tree of the February-March 2026 reference needs one line, the era it
## follows; so do three trees of other eras (a module zip has no tools/ to
## tell it), run through their CRD scripts only
PREVERSION_MODULE ?= github.com/openshift/api@v0.0.0-20260114133223-6ab113cb7368
FEBRUARY_MODULE ?= github.com/openshift/api@v0.0.0-20260302174620-dcac36b908db
OCTOBER_MODULE ?= github.com/openshift/api@v0.0.0-20251020135558-286504b695bc
LATE_OCTOBER_MODULE ?= github.com/openshift/api@v0.0.0-20251023193535-8691c3014652
MID_FEBRUARY_MODULE ?= github.com/openshift/api@v0.0.0-20260218112846-22c744831738
conformance-dropin: $(CODEGEN)
	GO=$(GO) hack/dropin.sh $(CODEGEN) $(CONFORMANCE_MODULE)
	GO=$(GO) hack/dropin.sh $(CODEGEN) $(PREVERSION_MODULE)
	GO=$(GO) DROPIN_CONFIG='referenceEra: "2026-02"' hack/dropin.sh $(CODEGEN) $(FEBRUARY_MODULE)
	GO=$(GO) DROPIN_STEPS=crds DROPIN_CONFIG='referenceEra: "2025-10-09"' hack/dropin.sh $(CODEGEN) $(OCTOBER_MODULE)
	GO=$(GO) DROPIN_STEPS=crds DROPIN_CONFIG='referenceEra: "2025-10-09"' hack/dropin.sh $(CODEGEN) $(LATE_OCTOBER_MODULE)
	GO=$(GO) DROPIN_STEPS=crds DROPIN_CONFIG='referenceEra: "2026-02-18"' hack/dropin.sh $(CODEGEN) $(MID_FEBRUARY_MODULE)

## conformance-optin: the current tree OPTED IN to our checks (a
## .gatedcrd.yaml with kubeVersion 1.32 and a strict baseline): regenerated
## byte-identical, verified at 1.32, 1.37's rejections, strict mode with a
## baseline (hack/conformance.sh)
conformance-optin:
	GO=$(GO) hack/conformance.sh

## bench: Go benchmarks of every stage, then the whole pipeline on a synthetic
## tree at the scale of a large API repository and on the real tree of
## make conformance, then a bare codegen --verify (every generator) there
## (see docs/performance.md); never part of make test (it times things)
bench: $(CODEGEN)
	GATEDCRD_BENCH_MODULE=$(CONFORMANCE_MODULE) $(GO) -C tools test -run '^$$' -bench . -benchmem ./...
	GATEDCRD_BENCH_MODULE=$(CONFORMANCE_MODULE) GATEDCRD_BENCH_KUBE_VERSION=$(BENCH_KUBE_VERSIONS) \
		GATEDCRD_BENCH_SKIP=$(CURDIR)/hack/conformance-suites-skip.yaml \
		$(GO) -C apitest test -run '^$$' -bench . -benchtime 1x -timeout 60m ./cmd/apitest
	GO=$(GO) BENCH_MODULE=$(CONFORMANCE_MODULE) hack/bench.sh
	GO=$(GO) BENCH_MODULE=$(CONFORMANCE_MODULE) hack/bench-codegen.sh $(CODEGEN)

## conformance-variants: the merge's variant annotations and their readers
## (features/crdvariant, apitest) agree for every generated file of the
## real openshift/api trees of conformance-dropin (current and pre-version)
.PHONY: conformance-variants
conformance-variants:
	GO=$(GO) hack/conformance-variants.sh $(CONFORMANCE_MODULE) $(PREVERSION_MODULE)

## conformance-compat: codegen compat on two real openshift/api trees from the
## module proxy; checks the summary published in docs/compat.md
.PHONY: conformance-compat
conformance-compat:
	GO=$(GO) hack/conformance-compat.sh
