// Package engine is genplay's facade: it runs a scenario (a chainsaw Test)
// against a simulated cluster with Kyverno's generate machinery and returns
// a timeline (package timeline) that every adapter — the CLI, the wasm
// playground, the HTTP API — passes on unchanged.
//
// The layers, bottom up: resource (unstructured objects), cluster (the
// in-memory API server), source (YAML with positions), admission (an
// admission request and its user), policy (Kyverno's ClusterPolicy/Policy
// model and validation), variables, conditions and match (Kyverno's
// JMESPath, preconditions and match/exclude), rbac (Kyverno's permission
// check on generate targets), generate (the core both policy families
// share: writes admitted to every family, the UpdateRequest queue and its
// limits, labels, the background scan), the two families on it as peers,
// policy/controller (ClusterPolicy and Policy, in every build) and
// gpol/controller (the CEL GeneratingPolicy family, registered by the
// adapters that want it through Options.Families), scenario and assert
// (chainsaw's Test format and assertions), shell (script and command
// operations, registered by the adapters through Options.Scripts, as the CEL
// family is, and working through the narrow script.Session this package
// implements; package script is the contract), and this package on top,
// which admits every family's policies one way (putPolicy).
//
// genplay simulates several Kyverno releases on this one engine
// ([KyvernoVersions]; the default, [KyvernoVersion], is the latest):
// a release is a named set of behaviour changes, each written once next to
// the behaviour it changes (package engine/internal/upstream, Change) and
// listed by [KyvernoChanges]. Options.KyvernoVersion picks one; every
// timeline says which it shows, and an event a release decided names the
// change (timeline.Event.VersionChanges). CompareVersions runs a scenario
// under every release and marks the steps that differ.
//
// # Where genplay knowingly differs from a real cluster with Kyverno
//
// This list is the one place these differences are written down; the
// timeline repeats the relevant one as a "note" event where it matters.
//
//   - Time is logical. Kyverno reacts within the step that caused the
//     reaction; a chainsaw sleep advances the clock, and crossing Kyverno's
//     BACKGROUND_SCAN_INTERVAL (1h) runs the periodic background scan. A
//     sleep that crosses many intervals runs the scans one after the other
//     only until one changes nothing: the scans are level-based and nothing
//     else happens between them, so the later ones would change nothing
//     either; the timeline says how many were not run one by one.
//     Conformance tests that assert a state seconds after an action, before
//     a real Kyverno would have acted, can therefore disagree (SEMANTICS.md).
//   - There is no real webhook and no RBAC enforcement for users: userInfo
//     comes from the scenario's single admin user (or kubectl --as in a
//     script, with the roles its bindings give it, and a service account's
//     groups; a policy written so goes through the same admission). A
//     script's kubectl --context whose kubeconfig user has a client
//     certificate is that certificate's user (CN) and groups (O), as the
//     API server authenticates it, when the cluster's CA issued it (an
//     approved CertificateSigningRequest: package certificates). The
//     keys, requests and certificates (package pki) have real PEM and DER
//     shapes but no cryptography: their numbers are deterministic
//     stand-ins, and only the cluster's simulated CA can issue one the
//     simulated API server accepts. The browser's builds leave the
//     certificates API, kubeconfigs and openssl out (their size budgets:
//     +180 KB brotli in the full build), so such a script is skipped
//     there, saying so; the genplay CLI runs it.
//     kubectl evict deletes a pod at once (pods never run here), after the
//     CREATE of pods/eviction Kyverno's webhook sees. Kyverno's permission
//     check on generate targets is modelled (package rbac): a policy is
//     denied unless Kyverno's background controller may get and create
//     (and, with synchronize, update and delete) each target, and, with
//     synchronize, its admission controller may list and get them, given a
//     default Helm install's permissions (Options.Permissions: or Kyverno's
//     e2e install, or none) plus the ClusterRoles aggregated into their
//     roles and the bindings to their service accounts in the simulated
//     cluster.
//     Kinds the cluster does not serve are not checked (a real cluster
//     denies them). The API server authorizes the background controller's
//     writes (create, update, delete) with the same permissions, in both
//     families: Kyverno admits a GeneratingPolicy without asking for them
//     (K:pkg/cel/policies/gpol/validate.go), so a write it may not make
//     fails as on a cluster ("failed to generate resources: permission
//     denied: secrets is forbidden: ..."). A GeneratingPolicy's WatchManager
//     watches the kinds it generates with the same credentials, so without
//     watch on a kind (Kyverno's e2e install grants get and list on
//     Secrets, not watch; a default install reads neither, as Kubernetes'
//     view role leaves Secrets and RBAC objects out) its downstreams are
//     not reverted, recreated or kept in step with their clone source, as
//     real Kyverno v1.19.0 did (internal/oracle's recordings). Kyverno's
//     other controllers are not limited. A policy a generate rule writes goes through Kyverno's
//     policy webhook (a denial fails the write) and is taken up by its
//     family as a user's would be.
//   - A failed UpdateRequest is reported once in the timeline (Kyverno
//     retries it three times, which in a deterministic simulation changes
//     nothing, then drops it; for a GeneratingPolicy each retry would also
//     repeat its API calls and report results).
//   - The API server shows no managedFields (server-side apply tracks who
//     owns which field, unseen, package cluster) and has no finalizers,
//     terminating phase or status subresources; deletes are immediate and
//     cascades (a Namespace's contents, ownerReference garbage collection,
//     the custom resources of a deleted CustomResourceDefinition) happen
//     in the same step. The custom resources a CRD's deletion removes
//     reach no admission webhook (the API server's finalizer deletes them
//     from storage), as in a cluster; their kind stays served afterwards,
//     where a real API server stops serving it. default, kube-system and
//     kube-public cannot be deleted (the API server's NamespaceLifecycle
//     message), and an established CRD's scope and kind are immutable, so
//     no object is ever stored under two scopes. Numbers are JSON numbers
//     (float64).
//     Kyverno's server-side apply (useServerSideApply, both families:
//     field manager kyverno-generate, forced) is the store's
//     cluster.Store.Apply: structured-merge-diff's rules with lists whole
//     and status left alone, as for every kind with a status subresource.
//   - genplay test reads chainsaw's Configuration for what changes which
//     tests run and how (testFile, the include and exclude regexes,
//     fullName, failFast, namespace); timeouts, parallelism, repeats and
//     clean-up settings change nothing in a logical-time simulation and
//     are listed as notes.
//   - chainsaw's apply is a create or a JSON merge patch (RFC 7386) of the
//     live object; chainsaw's random test namespace is the fixed
//     "chainsaw-test" so runs replay byte for byte; chainsaw's automatic
//     clean-up at the end of a test is not run, so the final cluster stays
//     visible.
//   - genplay simulates the releases KyvernoVersions lists (v1.18.2,
//     v1.19.0, v1.19.1) as one engine with the behaviour changes between
//     them: the changes it models are those KyvernoChanges lists, found by
//     comparing the releases' source; the rest of a release's code is the
//     latest's. Kyverno's conformance suites of each release run against
//     it (cmd/genplay's conformance test). Known to remain, for v1.18.2's
//     GeneratingPolicy: its apply core did not report a downstream that
//     already existed (kyverno#16280), and its watch cache was synced after
//     failed evaluations and empty cache restores too (kyverno#16041), so
//     a cache restore (a background-controller restart, synchronize turned
//     on) restored nothing there; genplay restores and syncs as v1.19.0
//     does.
//   - Work is bounded (Limits, DefaultLimits), deterministically: a run
//     has a work budget (Limits.Work, package engine/internal/budget)
//     that JMESPath evaluation, regular expressions, wildcards, condition
//     operators, foreach, scans, the reconcile loop and jq draw from;
//     running out fails the rule at work and stops the run with a
//     diagnostic that says what ran out and where. A chain of generated
//     triggers deeper than ChainDepth is dropped with a "did not converge"
//     event (a wide fan-out of one event is not limited); past the run's
//     other limits (steps, operations, objects, the timeline's size as
//     written, UpdateRequests) the run stops with an error diagnostic, and
//     the step that would make the timeline too large is recorded in
//     outline only; a foreach list longer than ForEachElements fails its
//     rule. Kyverno has no such limits: a real cluster would keep going.
//     The adapters add a wall-clock safety net (Options.Context: the API's
//     timeout and clients that go away, the CLI's time and memory
//     watchdog; the browser terminates its worker), which is not
//     deterministic and says so.
//   - UpdateRequests are not objects in the cluster, except those a user
//     creates, which Kyverno processes (and deletes once completed).
//   - apiCall context entries are answered from the simulated cluster (GET
//     only); service calls, globalReference and imageRegistry entries are
//     errors. random() draws from a generator seeded per run, so a run
//     replays byte for byte; is_external_url is an error (no network).
//     x509_decode runs only in native builds: Go's crypto/x509 would add
//     0.35 MB to the browser's wasm, so in the browser and the Workers API
//     it is an error that says so. Kyverno's configuration is its default:
//     docker.io is the default registry of images and image_normalize, and
//     the images variable is built eagerly, so a trigger with an image
//     Kyverno cannot parse has no images variable (Kyverno's deferred
//     loader reports the parse error when the variable is read).
//   - Policy validation checks what Kyverno's does for generate rules,
//     including that each variable is request data, an element, a function
//     call or a context entry; a variable that is not valid JMESPath, which
//     Kyverno refuses at admission, fails its rule when it runs instead.
//   - The API server's defaulting is limited to what generate rules can
//     observe (package cluster lists it), and so is its validation: object
//     metadata, and the data of ConfigMaps and Secrets (string values,
//     base64, config keys, 1 MiB) and the size of a write (3 MiB for the
//     API server, 1.5 MiB for etcd); other specs are stored unchecked, where a
//     real cluster would reject an unknown or mistyped field. There is no
//     kubelet, so Pods never become Ready, and mutate and validate rules are
//     not simulated.
//   - GeneratingPolicy and NamespacedGeneratingPolicy (the CEL family,
//     engine/gpol/controller, registered through Options.Families): the
//     WatchManager's reactions to watch events are queued after the
//     UpdateRequest that caused them, with its cache already refreshed (as
//     GENERATING-POLICY.md §3.9 advises), so the revert/refresh race of a
//     trigger update is not reproduced. The webhook sends a policy every
//     request on its resources outside kube-system and kyverno (the pinned
//     namespace for a NamespacedGeneratingPolicy); the policy's own
//     selectors and match conditions are checked by the engine step, not
//     at the API server, with the same outcome. The webhook configuration is
//     rendered for CEL policies only; a policy gets a fine-grained webhook
//     when it sets matchPolicy Exact or a timeout, or its match conditions
//     use none of Kyverno's libraries (Kyverno compiles them in the
//     Kubernetes webhook environment). Reports are written straight into
//     PolicyReport and ClusterPolicyReport objects named by the trigger's
//     UID (no EphemeralReports), and Kubernetes Event objects are timeline
//     events. GlobalContextEntry data is read from the simulated cluster when
//     a policy asks for it (Kyverno caches it per refreshInterval); http.*
//     and image.GetMetadata are errors; Kyverno's resourceFilters are its
//     default's kinds (Event, ReplicaSet, reports, UpdateRequests) and
//     system namespaces; there is no UpdateRequest threshold. Kinds whose CRD
//     is installed after Kyverno started are synchronized (Kyverno's
//     WatchManager cannot map them until a restart). A restart of the
//     background controller is Session.RestartBackgroundController: its
//     watch cache is dropped and rebuilt by cache-restore UpdateRequests,
//     at once; scripts ask for it with kubectl rollout restart
//     deployment/kyverno-background-controller -n kyverno (rollout status
//     on it reports the rollout complete; other rollouts are not
//     simulated).
//     PolicyExceptions are off unless Options.PolicyExceptions, as in the
//     Helm chart; genplay test turns them on, as Kyverno's suite runs.
//   - The CEL environment (engine/gpol/compiler) is Kyverno's, with these
//     differences: every evaluation has a CEL cost budget
//     (compiler.DefaultCostLimit, Kubernetes' per-expression limit) and
//     draws from the run's work budget, where Kyverno sets no limit for
//     generating policies; every call is priced from its arguments before
//     it runs (compiler/cost.go), and one that would exceed the budget, or
//     build a string larger than the 3 MiB Kubernetes accepts in a
//     request, fails the evaluation without running; lists.range is
//     capped at 100,000 elements and the lists the libraries build
//     (resource lists, generator inputs, findAll) at 10,000. random() is
//     seeded per UpdateRequest and trigger and time.now() is the logical
//     clock, so runs replay. namespaceObject is untyped (dyn), so a
//     misspelt field is a runtime error rather than a compile error.
//     orValue on a plain value of another type returns the value. Values
//     handed to generator.apply are JSON-shaped: bytes become base64 and
//     timestamps RFC 3339 strings, where Kyverno refuses them. The
//     Kubernetes format validators for uri, byte, date and datetime are
//     simplified; ext.Protos is off.
//     x509.decode, like JMESPath's x509_decode, runs only in native builds
//     (one switch for both families: GOOS, files built for !js): in every
//     js build, the browser's and the worker's, Go's crypto/x509 would add
//     0.4 MB to the wasm, so x509.decode compiles as with the CLI and every
//     call is an error that says so.
//   - Script steps are interpreted as kubectl commands against the
//     simulated cluster (package shell), inside a subset of sh: &&, ||,
//     !, if/elif/else, for, while, until, break, variables, $(...), exit,
//     echo, test and [ (strings, integers, files), seq, sleep (it advances
//     the logical clock), set -e, and the common utilities (cat, printf,
//     rm, mkdir, touch, cp, mv, ls, base64, tr, sed (its s command), grep,
//     head, tail, wc, cut, sort, uniq, tee) with pipes and redirections to
//     and from files. Files live in the test's scratch folder, in memory
//     for the whole test: the test's own files are read through it, and nothing is
//     ever written to or removed from the real file system (an absolute
//     path too is the scratch's). Other programs, case, arithmetic and
//     backquotes make the test skip with the reason; a script's loops run
//     at most 10,000 times and it prints at most 4 MiB. jq in a pipeline
//     runs only in native builds: it would add about 0.35 MB to the
//     browser's wasm, so in the browser a script that pipes into jq makes
//     the scenario skip with that reason, and there, only there, the
//     browser's result differs from the CLI's. The browser's core build
//     has no shell at all (about 0.65 MB of code; Options.Scripts): it
//     answers a scenario with a script or command operation with a skip
//     that says so, and the page's loader runs such a scenario in the full
//     build, which has the shell.
package engine
