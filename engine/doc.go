// Package engine is genplay's facade: it runs a scenario (a chainsaw Test)
// against a simulated cluster with Kyverno's generate machinery and returns
// a timeline (package timeline) that every adapter — the CLI, the wasm
// playground, the HTTP API — passes on unchanged.
//
// The layers, bottom up: resource (unstructured objects), cluster (the
// in-memory API server), source (YAML with positions), policy (Kyverno's
// policy model and validation), variables, conditions and match (Kyverno's
// JMESPath, preconditions and match/exclude), generate (the webhook, the
// background controller and the policy controller), scenario and assert
// (chainsaw's Test format and assertions), and this package on top.
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
//     script, with the roles its bindings give it). Kyverno's permission
//     check on generate targets is modelled (permissions.go): a policy is
//     denied unless Kyverno's background controller may get and create
//     (and, with synchronize, update and delete) each target, given a
//     default Helm install's permissions (Options.Permissions: or Kyverno's
//     e2e install, or none) plus the ClusterRoles aggregated into its role
//     and the bindings to its service account in the simulated cluster.
//     Kinds the cluster does not serve are not checked (a real cluster
//     denies them), and Kyverno's controllers themselves are not limited.
//   - A failed UpdateRequest is reported once in the timeline (Kyverno
//     retries it three times, which in a deterministic simulation changes
//     nothing, then drops it).
//   - The API server has no managedFields, finalizers, terminating phase
//     or status subresources; deletes are immediate and
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
//     Server-side apply is modelled per downstream by remembering what
//     Kyverno's "generate" field manager applied last.
//   - chainsaw's apply is a create or a JSON merge patch (RFC 7386) of the
//     live object; chainsaw's random test namespace is the fixed
//     "chainsaw-test" so runs replay byte for byte; chainsaw's automatic
//     clean-up at the end of a test is not run, so the final cluster stays
//     visible.
//   - "orphaned: true" under generate is read as
//     orphanDownstreamOnPolicyDelete: true, as some tutorials write it; a
//     real cluster rejects the unknown field. The timeline says so.
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
//     replays byte for byte; x509_decode, image_normalize and
//     is_external_url are errors.
//   - The API server's defaulting is limited to what generate rules can
//     observe (package cluster lists it), and so is its validation: object
//     metadata, and the data of ConfigMaps and Secrets (string values,
//     base64, config keys, 1 MiB); other specs are stored unchecked, where a
//     real cluster would reject an unknown or mistyped field. There is no
//     kubelet, so Pods never become Ready, and mutate and validate rules are
//     not simulated.
//   - Script steps are interpreted as kubectl commands against the
//     simulated cluster (kubectl.go). jq in a pipeline runs only in native
//     builds: it would add about 0.35 MB to the browser's wasm, so in the
//     browser a script that pipes into jq makes the scenario skip with that
//     reason, and there, only there, the browser's result differs from the
//     CLI's.
package engine
