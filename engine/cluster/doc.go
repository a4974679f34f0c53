// Package cluster is the simulator's Kubernetes API server: an in-memory
// object store with the API server's identities, versions, validation,
// namespaces and garbage collection, and nothing else.
//
// A Store holds resource.Objects keyed by group, kind, namespace and name.
// Create, Update, Apply, Get, Delete and List behave like the matching API
// calls: every write stamps the object with metadata.uid,
// metadata.resourceVersion, metadata.generation and
// metadata.creationTimestamp, and failures come back
// as *StatusError values whose messages read like the API server's
// (`configmaps "settings" not found`). Check them with errors.Is against
// ErrNotFound, ErrAlreadyExists, ErrConflict, ErrInvalid, ErrBadRequest and
// ErrForbidden.
//
// # Ownership
//
// A stored object is never changed in place: every write stores a new one.
// That lets the store hand objects across without copying them, under two
// rules. Create and Update take their argument over (the caller must not use
// it afterwards: pass obj.DeepCopy() to keep a copy) and return the stored
// object; that result, View and ViewByUID are read-only (DeepCopy before
// changing). Get, GetByUID and List return copies that the caller owns.
// Tests enforce the rules with EnableAudit, which makes Audit report any
// stored object changed after it was stored.
//
// Everything is deterministic. Timestamps come from a logical Clock that
// starts at 2024-01-01T00:00:00Z and advances one second per write; uids are
// UUID-shaped counters (00000000-0000-4000-8000-000000000001, ...);
// resourceVersions are a global counter ("1", "2", ...); names made from
// metadata.generateName get a pseudo-random but repeatable suffix; lists are
// sorted. The same sequence of calls yields the same objects, byte for byte.
//
// The store knows a table of built-in kinds (core, apps, batch, networking,
// RBAC, storage, admission, Kyverno and policy reports, ...) with their
// plural resource names and scopes. Creating an object of any other kind
// registers that kind, namespaced if the object has a metadata.namespace;
// Inferred reports such guesses so the engine can say it made one. Versions
// of one group and kind share storage, as they do in a real cluster.
//
// # Differences from a real API server
//
// The store is meant to be a faithful enough backdrop for Kyverno generate
// rules, not a real server. In particular:
//
//   - There is no admission chain: no webhooks (Kyverno included, which the
//     engine simulates above this package), no admission plugins, no
//     quotas, no RBAC authorization. Only the NamespaceLifecycle rule is
//     modelled: objects cannot be created in a missing namespace, or in one
//     whose status.phase is Terminating.
//   - Defaulting is limited to what generate policies and their tests can
//     observe: a Namespace gets status.phase Active and the
//     kubernetes.io/metadata.name label; a Secret's stringData is merged
//     into data and its type defaults to Opaque; RBAC User and Group subjects get their apiGroup; a
//     CustomResourceDefinition's status is the API server's (what a write
//     puts there is dropped): acceptedNames, the NamesAccepted and
//     Established conditions (True at once: the CRD is established by the
//     write) and storedVersions; its kinds are served with their scope. There is no schema validation. Metadata is
//     validated: name (DNS-1123 subdomain for most kinds, DNS-1123 label
//     for Namespace, DNS-1035 label for Service, a path segment for RBAC
//     kinds), label keys and values, annotation keys (lowercased, as the
//     API server checks them) and total size. So is the data of ConfigMaps
//     and Secrets, which generate rules write by hand: string values
//     (BadRequest otherwise, as the API server's decoding answers), base64
//     for binary values, config keys and 1 MiB in all. Other specs are
//     stored as given. Sizes are a real cluster's: a write over 3 MiB as
//     JSON is refused as the API server refuses its body ("Request entity
//     too large: limit is 3145728"), one over 1.5 MiB after validation as
//     etcd refuses it ("etcdserver: request is too large"); the object is
//     measured without encoding it, and the measure stops at the limit.
//   - Deletes are immediate and complete: there are no finalizers, no
//     deletionTimestamp, no Terminating phase, no grace periods, and no
//     orphan or foreground propagation policy. Deleting a Namespace removes
//     its contents at once (the namespace controller's work), and deleting an
//     owner removes, recursively, the dependents left without a live owner
//     (the garbage collector's work, always with background semantics). The
//     garbage collector of a real cluster would also strip the dangling
//     ownerReference from a dependent that keeps another owner; this store
//     leaves it. An object created with owners that do not exist is kept
//     (a real collector would delete it soon after).
//   - There is no status subresource: Update writes status like any other
//     field. generation grows when anything outside metadata and status
//     changes, for every kind.
//   - Server-side apply (Apply) is forced, the only kind Kyverno makes, and
//     follows structured-merge-diff: the applied object is merged into the
//     live one, and a field the manager applied before and no longer
//     applies goes unless another writer owns it (the writer of a Create
//     or Update owns what it added or changed; the other apply managers
//     what they applied), with the maps that removal empties. Ownership is
//     kept per object and manager but not shown as metadata.managedFields,
//     and every writer but the apply managers counts as one. Lists are
//     atomic (replaced whole; no merge keys), and an apply never writes
//     status (as for every kind with a status subresource), where Create
//     and Update write it like any other field.
//   - There are no managedFields in metadata, no Patch, no Watch,
//     no selfLink, and no list resourceVersion or continue tokens.
//   - Reading an object through another served version of its kind only
//     relabels apiVersion; no conversion takes place.
//   - Numbers are float64, as in every resource.Object; integers larger than
//     2^53 lose precision. Objects holding other Go types are normalized
//     through encoding/json on the way in.
//   - An update that changes nothing is a no-op and keeps the old
//     resourceVersion, as the real server does, but the store compares whole
//     objects instead of encoded bytes.
//   - Errors carry a Reason, an HTTP Code, a Message and, for Invalid, the
//     field Causes; there is no metav1.Status and no retry-after hint.
package cluster
