package cluster

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/genplay/genplay/engine/resource"
)

// Actors named in a Deletion.
const (
	ActorUser                = "user"
	ActorNamespaceController = "namespace-controller"
	ActorGarbageCollector    = "garbage-collector"
	// ActorCRDFinalizer deletes the custom resources of a deleted
	// CustomResourceDefinition (the apiextensions server's finalizer,
	// which writes to storage directly: no admission request).
	ActorCRDFinalizer = "customresourcedefinition-finalizer"
)

// immortalNamespaces cannot be deleted (the NamespaceLifecycle admission
// plugin).
var immortalNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

// Deletion is one object removed by Delete, and who removed it.
type Deletion struct {
	Object resource.Object
	// Actor is ActorUser for the requested object, ActorNamespaceController
	// for the contents of a deleted Namespace, ActorGarbageCollector for
	// dependents whose owners are all gone and ActorCRDFinalizer for the
	// custom resources of a deleted CustomResourceDefinition.
	Actor string
}

// Query selects objects for List.
type Query struct {
	// APIVersion and Kind name the type. An empty APIVersion finds the first
	// registered kind of that name. An empty Kind lists every kind.
	APIVersion, Kind string
	// Namespace restricts the result to one namespace; "" means all.
	Namespace string
	// Labels must all be present with exactly these values.
	Labels map[string]string
	// Selector, when set, is an extra filter over each candidate's labels.
	Selector func(labels map[string]string) bool
}

type groupKind struct{ group, kind string }

type objKey struct {
	gk              groupKind
	namespace, name string
}

// labelKey indexes one label of the objects of one kind, in one namespace
// or (allNamespaces) in all. The kind is its id (kindID), not its group and
// kind strings: fewer bytes to hash on every index write, for a key that is
// written twice per label per stored object.
type labelKey struct {
	kind                  int32
	allNamespaces         bool
	namespace, key, value string
}

// entry is one stored object with what the indexes need.
type entry struct {
	key    objKey
	kind   int32           // s.kindID(key.gk), for the indexes keyed by kind
	obj    resource.Object // the store's own copy, never changed; View lends it read-only
	uid    string
	owners []string // uids from metadata.ownerReferences
}

// labels returns the stored object's metadata.labels, read in place rather
// than copied at insert: the store never changes a stored object (every
// write stores a new one, and the object stored is the store's own copy),
// so the labels remove unindexes are the ones insert indexed. The caller
// must not modify the map. Values are strings: validateMeta rejects others.
func (e *entry) labels() map[string]any {
	md, _ := e.obj["metadata"].(map[string]any)
	labels, _ := md["labels"].(map[string]any)
	return labels
}

// labelValue is a label value as resource.Object.Labels renders it, and
// whether Labels would hold it at all.
func labelValue(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case nil:
		return "", false
	default:
		return fmt.Sprint(v), true
	}
}

var namespaceGK = groupKind{kind: "Namespace"}

var namespaceInfo = KindInfo{Version: "v1", Kind: "Namespace", Resource: "namespaces", Names: NameLabel}

// Store is an in-memory API server. It is safe for concurrent use, though
// the engine drives it from one goroutine.
type Store struct {
	mu    sync.Mutex
	clock *Clock

	kinds    []KindInfo
	byGVK    map[resource.GVK]int
	byKind   map[string]int
	byGK     map[groupKind]int
	inferred map[resource.GVK]bool

	objects    map[objKey]*entry
	byType     map[int32]map[string]entrySet // kind id -> namespace -> objects
	byLabel    map[labelKey]entrySet
	byNS       map[string]entrySet // namespace -> objects of every kind
	byUID      map[string]*entry
	dependents map[string]entrySet // owner uid -> dependents

	rv, uidSeq, nameSeq uint64
	// keepUIDs: Create keeps an object's own uid (KeepUIDs).
	keepUIDs bool
	// writes counts every insert and removal (Writes).
	writes uint64
	// managed records who owns the fields of the objects server-side apply
	// has written, by uid (apply.go); nil until the first apply.
	managed map[string]*managedFields

	audit   *audit   // nil unless EnableAudit
	journal *journal // nil unless RecordWrites
}

// KeepUIDs makes Create keep an object's own metadata.uid (when no stored
// object has it), as Kyverno's CLI keeps a test resource's: a real API
// server always assigns its own.
func (s *Store) KeepUIDs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keepUIDs = true
}

// NewStore returns an empty store that knows the built-in kinds. A nil clock
// gets a fresh one.
func NewStore(clock *Clock) *Store {
	if clock == nil {
		clock = NewClock()
	}
	kinds := builtinKindTable()
	return &Store{
		clock:      clock,
		kinds:      slices.Clone(kinds.kinds),
		byGVK:      maps.Clone(kinds.byGVK),
		byKind:     maps.Clone(kinds.byKind),
		byGK:       maps.Clone(kinds.byGK),
		inferred:   map[resource.GVK]bool{},
		objects:    map[objKey]*entry{},
		byType:     map[int32]map[string]entrySet{},
		byLabel:    map[labelKey]entrySet{},
		byNS:       map[string]entrySet{},
		byUID:      map[string]*entry{},
		dependents: map[string]entrySet{},
	}
}

// builtinKindTable is the kind table (kinds, byGVK, byKind, byGK) after
// registering builtinKinds in order, built once: NewStore clones it, which
// costs a fraction of registering ~60 kinds one by one (map growth) on every
// engine run. Only those four fields of the returned Store are set.
var builtinKindTable = sync.OnceValue(func() *Store {
	s := &Store{
		byGVK:    map[resource.GVK]int{},
		byKind:   map[string]int{},
		byGK:     map[groupKind]int{},
		inferred: map[resource.GVK]bool{},
	}
	for _, k := range builtinKinds() {
		s.register(k)
	}
	return s
})

// Clock returns the store's clock.
func (s *Store) Clock() *Clock { return s.clock }

// RegisterKind adds a kind, or replaces the entry with the same group,
// version and kind (which then no longer counts as inferred). An empty
// Resource is derived from Kind. Changing the scope of a kind that already
// has objects is not supported.
func (s *Store) RegisterKind(k KindInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.register(k)
}

func (s *Store) register(k KindInfo) {
	if k.Resource == "" {
		k.Resource = plural(k.Kind)
	}
	gvk := k.GVK()
	delete(s.inferred, gvk)
	if i, ok := s.byGVK[gvk]; ok {
		s.kinds[i] = k
		return
	}
	s.kinds = append(s.kinds, k)
	i := len(s.kinds) - 1
	s.byGVK[gvk] = i
	if _, ok := s.byKind[k.Kind]; !ok {
		s.byKind[k.Kind] = i
	}
	if _, ok := s.byGK[groupKind{k.Group, k.Kind}]; !ok {
		s.byGK[groupKind{k.Group, k.Kind}] = i
	}
}

// KindInfo looks a kind up by apiVersion and kind; with an empty apiVersion,
// by kind alone (the first registered kind of that name).
func (s *Store) KindInfo(apiVersion, kind string) (KindInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookup(apiVersion, kind)
}

func (s *Store) lookup(apiVersion, kind string) (KindInfo, bool) {
	var i int
	var ok bool
	if apiVersion == "" {
		i, ok = s.byKind[kind]
	} else {
		g, v := resource.SplitAPIVersion(apiVersion)
		i, ok = s.byGVK[resource.GVK{Group: g, Version: v, Kind: kind}]
	}
	if !ok {
		return KindInfo{}, false
	}
	return s.kinds[i], true
}

// KindByResource looks a kind up by its API path segments: group,
// version and plural resource ("", "v1", "configmaps").
func (s *Store) KindByResource(group, version, res string) (KindInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.kinds {
		if k.Group == group && k.Version == version && k.Resource == res {
			return k, true
		}
	}
	return KindInfo{}, false
}

// Namespaced reports whether a kind is namespaced, and whether it is known.
func (s *Store) Namespaced(apiVersion, kind string) (namespaced, known bool) {
	k, ok := s.KindInfo(apiVersion, kind)
	return k.Namespaced, ok
}

// Inferred reports whether the kind was registered by Create because it was
// unknown, with its scope guessed from the first object's metadata.namespace.
func (s *Store) Inferred(apiVersion, kind string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, v := resource.SplitAPIVersion(apiVersion)
	return s.inferred[resource.GVK{Group: g, Version: v, Kind: kind}]
}

// Kinds returns every registered kind in registration order.
func (s *Store) Kinds() []KindInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.kinds)
}

// Writes counts the store's changes so far (creates, updates, deletes):
// equal counts before and after some work mean it changed nothing.
func (s *Store) Writes() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

// Len returns the number of stored objects.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.objects)
}

// Create stores a new object and returns it as stored, with uid,
// resourceVersion, generation and creationTimestamp set.
//
// The store takes obj over (see Ownership): the caller must not use obj
// afterwards, and must not change the returned object, which is the stored
// one.
//
// An object of an unknown kind registers the kind, namespaced when the
// object has a metadata.namespace (see Inferred). A cluster-scoped object
// loses its metadata.namespace silently, as with the real API server.
// metadata.generateName is honoured when metadata.name is empty.
func (s *Store) Create(obj resource.Object) (resource.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.create(obj)
}

// create is Create with the lock held.
func (s *Store) create(obj resource.Object) (resource.Object, error) {
	o, err := admit(obj)
	if err != nil {
		return nil, err
	}
	info := s.kindFor(o)
	md := o.Metadata()
	ns, _ := md["namespace"].(string)
	if !info.Namespaced {
		delete(md, "namespace")
		ns = ""
	}
	gk := groupKind{info.Group, info.Kind}
	name, _ := md["name"].(string)
	if gen, _ := md["generateName"].(string); name == "" && gen != "" {
		name = s.generateName(gk, ns, gen)
		md["name"] = name
	}
	if gk == namespaceGK {
		labelNamespaceName(o)
	}
	if err := decodeData(info, o); err != nil {
		return nil, err
	}
	applyDefaults(info, o)
	if gk == crdGK {
		crdStatus(o, nil, s.clock.Stamp())
	}
	causes := append(validateMeta(info, md), validateData(info, o)...)
	if info.Namespaced && ns == "" {
		causes = append(causes, FieldError{Type: "Required value", Field: "metadata.namespace",
			Detail: "a namespaced " + info.Kind + " needs a namespace"})
	}
	if len(causes) > 0 {
		return nil, Invalid(info.Kind, name, causes)
	}
	if info.Namespaced {
		nsEntry := s.objects[objKey{gk: namespaceGK, name: ns}]
		if nsEntry == nil {
			return nil, notFound(namespaceInfo, ns)
		}
		if nsEntry.obj.NestedString("status", "phase") == "Terminating" {
			return nil, forbidden(fmt.Sprintf("%s %q is forbidden: unable to create new content in namespace %s because it is being terminated",
				qualified(info), name, ns))
		}
	}
	if rv, _ := md["resourceVersion"].(string); rv != "" {
		return nil, badRequest("resourceVersion should not be set on objects to be created")
	}
	key := objKey{gk: gk, namespace: ns, name: name}
	if s.objects[key] != nil {
		return nil, alreadyExists(info, name)
	}
	if err := checkStoredSize(o); err != nil {
		return nil, err
	}
	s.uidSeq++
	if uid, _ := md["uid"].(string); !s.keepUIDs || uid == "" || s.byUID[uid] != nil {
		md["uid"] = uidString(s.uidSeq)
	}
	md["resourceVersion"] = s.nextRV()
	md["generation"] = float64(1)
	md["creationTimestamp"] = s.clock.Stamp()
	delete(md, "deletionTimestamp")
	delete(md, "deletionGracePeriodSeconds")
	s.insert(key, o)
	s.audit.stored(o)
	s.registerCRD(o)
	s.clock.Tick()
	return o, nil
}

// Update replaces a stored object and returns it as stored.
//
// The object must exist (NotFound). A non-empty metadata.resourceVersion
// must equal the stored one, and a non-empty metadata.uid the stored uid
// (Conflict). uid and creationTimestamp are kept; generation grows by one
// when anything outside metadata and status changed.
//
// The store takes obj over and the result is read-only, as with Create.
//
// An update that changes nothing (the object equals the stored one once the
// server-owned fields uid, creationTimestamp, generation and resourceVersion
// are ignored) is a no-op: nothing is written, the clock does not tick, and
// the stored object comes back with its old resourceVersion. Compare the
// resourceVersion before and after, or call UpdateChanged, to tell.
func (s *Store) Update(obj resource.Object) (resource.Object, error) {
	out, _, err := s.UpdateChanged(obj)
	return out, err
}

// UpdateChanged is Update, and also reports whether anything was written.
func (s *Store) UpdateChanged(obj resource.Object) (resource.Object, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.update(obj, false, false)
}

// update is UpdateChanged with the lock held. A write by server-side apply
// (applied, apply.go) records its ownership itself; a dry run stores
// nothing and reports whether the update would write.
func (s *Store) update(obj resource.Object, applied, dryRun bool) (resource.Object, bool, error) {
	o, err := admit(obj)
	if err != nil {
		return nil, false, err
	}
	info, ok := s.lookup(o.APIVersion(), o.Kind())
	if !ok {
		g, _ := resource.SplitAPIVersion(o.APIVersion())
		return nil, false, notFound(KindInfo{Group: g, Kind: o.Kind(), Resource: plural(o.Kind())}, o.Name())
	}
	md := o.Metadata()
	if !info.Namespaced {
		delete(md, "namespace")
	}
	name, _ := md["name"].(string)
	if name == "" {
		return nil, false, Invalid(info.Kind, name, []FieldError{{Type: "Required value", Field: "metadata.name",
			Detail: "name or generateName is required"}})
	}
	key := s.keyOf(info, o.Namespace(), name)
	cur := s.objects[key]
	if cur == nil {
		return nil, false, notFound(info, name)
	}
	if key.gk == namespaceGK {
		labelNamespaceName(o)
	}
	if err := decodeData(info, o); err != nil {
		return nil, false, err
	}
	applyDefaults(info, o)
	if uid, _ := md["uid"].(string); uid != "" && uid != cur.uid {
		return nil, false, conflict(info, name, fmt.Sprintf("Precondition failed: UID in precondition: %s, UID in object meta: %s", uid, cur.uid))
	}
	if rv, _ := md["resourceVersion"].(string); rv != "" && rv != cur.obj.ResourceVersion() {
		return nil, false, conflict(info, name, "the object has been modified; please apply your changes to the latest version and try again")
	}
	if causes := append(validateMeta(info, md), validateData(info, o)...); len(causes) > 0 {
		return nil, false, Invalid(info.Kind, name, causes)
	}
	if key.gk == crdGK {
		if causes := crdImmutable(cur.obj, o); len(causes) > 0 {
			return nil, false, Invalid("CustomResourceDefinition.apiextensions.k8s.io", name, causes)
		}
		crdStatus(o, cur.obj, s.clock.Stamp())
	}
	curMD := cur.obj.Metadata()
	for _, f := range []string{"uid", "creationTimestamp", "generation", "resourceVersion"} {
		if v, ok := curMD[f]; ok {
			md[f] = v
		} else {
			delete(md, f)
		}
	}
	if resource.Equal(o, cur.obj) {
		return cur.obj, false, nil
	}
	if err := checkStoredSize(o); err != nil {
		return nil, false, err
	}
	if dryRun {
		return o, true, nil
	}
	if specChanged(cur.obj, o) {
		gen, _ := curMD["generation"].(float64)
		md["generation"] = gen + 1
	}
	md["resourceVersion"] = s.nextRV()
	if !applied {
		s.updatedBy(cur, o)
	}
	s.remove(cur)
	s.insert(key, o)
	s.audit.stored(o)
	s.registerCRD(o)
	s.clock.Tick()
	return o, true, nil
}

// Get returns a copy of the object ref names. A namespace in ref is ignored
// for a cluster-scoped kind. When ref.APIVersion names another served
// version of the same group and kind, the copy carries that apiVersion.
func (s *Store) Get(ref resource.Ref) (resource.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	info, e, err := s.find(ref)
	if err != nil {
		return nil, err
	}
	return s.out(e, ref.APIVersion, info), nil
}

// GetByUID returns a copy of the object of ref's kind whose uid is uid,
// from the uid index: the cost does not grow with the store. ref.Name is
// ignored. For a namespaced kind, ref.Namespace must be the object's
// namespace; an empty one matches any. NotFound when no such object exists.
func (s *Store) GetByUID(ref resource.Ref, uid string) (resource.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	info, e, err := s.findUID(ref, uid)
	if err != nil {
		return nil, err
	}
	return s.out(e, ref.APIVersion, info), nil
}

// findUID is GetByUID's lookup: the entry and its kind, or NotFound.
func (s *Store) findUID(ref resource.Ref, uid string) (KindInfo, *entry, error) {
	info, ok := s.lookup(ref.APIVersion, ref.Kind)
	if !ok {
		g, _ := resource.SplitAPIVersion(ref.APIVersion)
		return KindInfo{}, nil, notFound(KindInfo{Group: g, Kind: ref.Kind, Resource: plural(ref.Kind)}, "uid:"+uid)
	}
	e := s.byUID[uid]
	if e == nil || uid == "" || e.key.gk != (groupKind{info.Group, info.Kind}) ||
		(info.Namespaced && ref.Namespace != "" && e.key.namespace != ref.Namespace) {
		return KindInfo{}, nil, notFound(info, "uid:"+uid)
	}
	return info, e, nil
}

// Delete removes the object ref names, then everything that goes with it,
// as the namespace controller and the garbage collector would, but at once.
//
// The result lists every removed object in the order removed, depth first:
// an object's dependents are removed before the object itself, so the
// requested object (Actor "user") always comes last. Deleting a Namespace
// first removes its contents, in order of group, kind and name, each after
// its own dependents. A dependent is collected when none of its
// ownerReferences (matched by uid) names an object that survives the
// deletion; a dependent with another live owner is kept unchanged. Objects
// sharing one owner are removed in order of group, kind, namespace and name.
func (s *Store) Delete(ref resource.Ref) ([]Deletion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, e, err := s.find(ref)
	if err != nil {
		return nil, err
	}
	if e.key.gk == namespaceGK && immortalNamespaces[e.key.name] {
		return nil, forbidden(fmt.Sprintf("namespaces %q is forbidden: this namespace may not be deleted", e.key.name))
	}
	var out []Deletion
	s.cascade(e, ActorUser, map[objKey]bool{}, &out)
	s.clock.Tick()
	return out, nil
}

func (s *Store) cascade(e *entry, actor string, deleting map[objKey]bool, out *[]Deletion) {
	deleting[e.key] = true
	if e.key.gk == namespaceGK {
		for _, c := range s.byNS[e.key.name].sorted() {
			if s.objects[c.key] == c && !deleting[c.key] {
				s.cascade(c, ActorNamespaceController, deleting, out)
			}
		}
	}
	if gk, ok := crdKind(e.obj); ok && e.key.gk == crdGK {
		// The CRD's finalizer deletes its custom resources first.
		var crs []*entry
		for _, c := range s.objects {
			if c.key.gk == gk && !deleting[c.key] {
				crs = append(crs, c)
			}
		}
		slices.SortFunc(crs, func(a, b *entry) int {
			return cmp.Or(cmp.Compare(a.key.namespace, b.key.namespace), cmp.Compare(a.key.name, b.key.name))
		})
		for _, c := range crs {
			if s.objects[c.key] == c && !deleting[c.key] {
				s.cascade(c, ActorCRDFinalizer, deleting, out)
			}
		}
	}
	for _, d := range s.dependents[e.uid].sorted() {
		if s.objects[d.key] == d && !deleting[d.key] && !s.hasLiveOwner(d, deleting) {
			s.cascade(d, ActorGarbageCollector, deleting, out)
		}
	}
	s.remove(e)
	delete(s.managed, e.uid)
	*out = append(*out, Deletion{Object: e.obj, Actor: actor})
}

func (s *Store) hasLiveOwner(e *entry, deleting map[objKey]bool) bool {
	for _, uid := range e.owners {
		if o := s.byUID[uid]; o != nil && !deleting[o.key] {
			return true
		}
	}
	return false
}

// List returns copies of the objects q selects, sorted by namespace and
// name (by group, kind, namespace and name when q.Kind is empty). An unknown
// kind lists nothing. The indexes make the cost grow with the size of the
// result (for a label query, with the rarest of its labels), not with the
// size of the store.
func (s *Store) List(q Query) []resource.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q.Kind == "" {
		return s.listAllKinds(q)
	}
	info, ok := s.lookup(q.APIVersion, q.Kind)
	if !ok {
		return nil
	}
	kind := s.kindID(groupKind{info.Group, info.Kind})
	ns := q.Namespace
	if !info.Namespaced {
		ns = ""
	}
	var candidates []*entry
	switch {
	case len(q.Labels) > 0:
		var smallest entrySet
		for k, v := range q.Labels {
			set := s.byLabel[labelKey{kind: kind, namespace: ns, allNamespaces: ns == "", key: k, value: v}]
			n := set.len()
			if n == 0 {
				return nil
			}
			if smallest.len() == 0 || n < smallest.len() {
				smallest = set
			}
		}
		candidates = smallest.appendTo(make([]*entry, 0, smallest.len()))
	case ns != "":
		set := s.byType[kind][ns]
		candidates = set.appendTo(make([]*entry, 0, set.len()))
	default:
		for _, set := range s.byType[kind] {
			candidates = set.appendTo(candidates)
		}
	}
	hits := candidates[:0] // filtered in place
	for _, e := range candidates {
		if matches(e, q) {
			hits = append(hits, e)
		}
	}
	sortEntries(hits)
	out := make([]resource.Object, len(hits))
	for i, e := range hits {
		out[i] = s.out(e, q.APIVersion, info)
	}
	return out
}

func (s *Store) listAllKinds(q Query) []resource.Object {
	var out []resource.Object
	for _, e := range s.entriesAcrossKinds(q) {
		out = append(out, e.obj.DeepCopy())
	}
	return out
}

// entriesAcrossKinds returns the entries of every kind that q selects,
// sorted by group, kind, namespace and name.
func (s *Store) entriesAcrossKinds(q Query) []*entry {
	var candidates []*entry
	if q.Namespace != "" {
		set := s.byNS[q.Namespace]
		candidates = set.appendTo(make([]*entry, 0, set.len()))
	} else {
		candidates = make([]*entry, 0, len(s.objects))
		for _, e := range s.objects {
			candidates = append(candidates, e)
		}
	}
	hits := candidates[:0] // filtered in place
	for _, e := range candidates {
		if matches(e, q) {
			hits = append(hits, e)
		}
	}
	return sortEntries(hits)
}

func matches(e *entry, q Query) bool {
	labels := e.labels()
	for k, v := range q.Labels {
		if got, ok := labelValue(labels[k]); !ok || got != v {
			return false
		}
	}
	if q.Selector != nil && !q.Selector(cloneLabels(labels)) {
		return false
	}
	return true
}

// All returns copies of every object, sorted by group, kind, namespace and
// name.
func (s *Store) All() []resource.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listAllKinds(Query{})
}

// Snapshot is All without the copies: every stored object itself, in All's
// order, read-only (see Ownership). The store never changes a stored object
// in place, so a snapshot keeps showing the cluster as it was when taken,
// and two snapshots share every object written in neither's meantime.
func (s *Store) Snapshot() []resource.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries := s.entriesAcrossKinds(Query{})
	out := make([]resource.Object, len(entries))
	for i, e := range entries {
		out[i] = e.obj
	}
	return out
}

// find resolves ref to its kind and stored entry.
func (s *Store) find(ref resource.Ref) (KindInfo, *entry, error) {
	info, ok := s.lookup(ref.APIVersion, ref.Kind)
	if !ok {
		g, _ := resource.SplitAPIVersion(ref.APIVersion)
		return KindInfo{}, nil, notFound(KindInfo{Group: g, Kind: ref.Kind, Resource: plural(ref.Kind)}, ref.Name)
	}
	e := s.objects[s.keyOf(info, ref.Namespace, ref.Name)]
	if e == nil {
		return KindInfo{}, nil, notFound(info, ref.Name)
	}
	return info, e, nil
}

func (s *Store) keyOf(info KindInfo, namespace, name string) objKey {
	if !info.Namespaced {
		namespace = ""
	}
	return objKey{gk: groupKind{info.Group, info.Kind}, namespace: namespace, name: name}
}

// out copies a stored object for a caller that asked for apiVersion.
func (s *Store) out(e *entry, apiVersion string, info KindInfo) resource.Object {
	o := e.obj.DeepCopy()
	if apiVersion != "" && info.APIVersion() == apiVersion {
		o["apiVersion"] = apiVersion
	}
	return o
}

// kindFor finds the kind of a new object, registering it when unknown. The
// scope of an unknown version of a known group and kind is taken from the
// known version; otherwise it follows metadata.namespace.
func (s *Store) kindFor(o resource.Object) KindInfo {
	if info, ok := s.lookup(o.APIVersion(), o.Kind()); ok {
		return info
	}
	gvk := o.GVK()
	info := KindInfo{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespaced: o.Namespace() != ""}
	if i, ok := s.byGK[groupKind{gvk.Group, gvk.Kind}]; ok {
		known := s.kinds[i]
		info.Namespaced, info.Resource, info.Names = known.Namespaced, known.Resource, known.Names
	}
	s.register(info)
	s.inferred[gvk] = true
	return s.kinds[s.byGVK[gvk]]
}

// uidString renders the uid with sequence number seq:
// fmt.Sprintf("00000000-0000-4000-8000-%012x", seq), without fmt.
func uidString(seq uint64) string {
	var digits [16]byte
	hex := strconv.AppendUint(digits[:0], seq, 16)
	var b [48]byte
	buf := append(b[:0], "00000000-0000-4000-8000-"...)
	for range 12 - len(hex) {
		buf = append(buf, '0')
	}
	return string(append(buf, hex...))
}

func (s *Store) nextRV() string {
	s.rv++
	return strconv.FormatUint(s.rv, 10)
}

// generateName appends a deterministic five-character suffix to base, as
// the API server appends a random one, and retries on a clash.
func (s *Store) generateName(gk groupKind, namespace, base string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	const maxBase = 63 - 5
	if len(base) > maxBase {
		base = base[:maxBase]
	}
	for {
		s.nameSeq++
		x := splitmix(s.nameSeq)
		suffix := make([]byte, 5)
		for i := range suffix {
			suffix[i] = alphabet[x%uint64(len(alphabet))]
			x /= uint64(len(alphabet))
		}
		name := base + string(suffix)
		if s.objects[objKey{gk: gk, namespace: namespace, name: name}] == nil {
			return name
		}
	}
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func (s *Store) insert(key objKey, o resource.Object) {
	s.writes++
	s.journal.note(key, nil)
	e := &entry{key: key, kind: s.kindID(key.gk), obj: o, uid: o.UID(), owners: ownerUIDs(o)}
	s.objects[key] = e
	byNS := s.byType[e.kind]
	if byNS == nil {
		byNS = map[string]entrySet{}
		s.byType[e.kind] = byNS
	}
	addTo(byNS, key.namespace, e)
	for k, v := range e.labels() {
		if v, ok := labelValue(v); ok {
			keys, n := labelKeys(e, k, v)
			for _, lk := range keys[:n] {
				addTo(s.byLabel, lk, e)
			}
		}
	}
	if key.namespace != "" {
		addTo(s.byNS, key.namespace, e)
	}
	if e.uid != "" {
		s.byUID[e.uid] = e
	}
	for _, uid := range e.owners {
		addTo(s.dependents, uid, e)
	}
}

func (s *Store) remove(e *entry) {
	s.writes++
	s.journal.note(e.key, e.obj)
	key := e.key
	delete(s.objects, key)
	if byNS := s.byType[e.kind]; byNS != nil {
		removeFrom(byNS, key.namespace, e)
		if len(byNS) == 0 {
			delete(s.byType, e.kind)
		}
	}
	for k, v := range e.labels() {
		if v, ok := labelValue(v); ok {
			keys, n := labelKeys(e, k, v)
			for _, lk := range keys[:n] {
				removeFrom(s.byLabel, lk, e)
			}
		}
	}
	if key.namespace != "" {
		removeFrom(s.byNS, key.namespace, e)
	}
	if s.byUID[e.uid] == e {
		delete(s.byUID, e.uid)
	}
	for _, uid := range e.owners {
		removeFrom(s.dependents, uid, e)
	}
}

// labelKeys returns the byLabel keys of label k=v on e, n of them: in all
// namespaces and, for a namespaced object, in e's namespace. A cluster-scoped
// object needs only the first, the one List reads for a cluster-scoped kind.
func labelKeys(e *entry, k, v string) (keys [2]labelKey, n int) {
	keys[0] = labelKey{kind: e.kind, allNamespaces: true, key: k, value: v}
	if e.key.namespace == "" {
		return keys, 1
	}
	keys[1] = labelKey{kind: e.kind, namespace: e.key.namespace, key: k, value: v}
	return keys, 2
}

// kindID is the store's small-integer name for a group and kind: the index
// of its first registered version, which register never moves or removes.
// Every stored object's kind and every kind List resolves is registered.
func (s *Store) kindID(gk groupKind) int32 {
	return int32(s.byGK[gk])
}

func ownerUIDs(o resource.Object) []string {
	refs, _ := o.Nested("metadata", "ownerReferences")
	list, _ := refs.([]any)
	var uids []string
	for _, r := range list {
		m, _ := r.(map[string]any)
		if uid, _ := m["uid"].(string); uid != "" && !slices.Contains(uids, uid) {
			uids = append(uids, uid)
		}
	}
	return uids
}

// specChanged reports whether anything outside metadata and status differs.
func specChanged(a, b resource.Object) bool {
	strip := func(o resource.Object) map[string]any {
		m := make(map[string]any, len(o))
		for k, v := range o {
			if k != "metadata" && k != "status" {
				m[k] = v
			}
		}
		return m
	}
	return !resource.Equal(strip(a), strip(b))
}

func compareKeys(a, b objKey) int {
	return cmp.Or(
		cmp.Compare(a.gk.group, b.gk.group),
		cmp.Compare(a.gk.kind, b.gk.kind),
		cmp.Compare(a.namespace, b.namespace),
		cmp.Compare(a.name, b.name),
	)
}

func sortEntries(es []*entry) []*entry {
	slices.SortFunc(es, func(a, b *entry) int { return compareKeys(a.key, b.key) })
	return es
}

// cloneLabels returns labels as resource.Object.Labels would: a fresh map,
// for a Selector that may keep or change it.
func cloneLabels(labels map[string]any) map[string]string {
	out := make(map[string]string, len(labels))
	for k, v := range labels {
		if v, ok := labelValue(v); ok {
			out[k] = v
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string { return resource.SortedKeys(m) }

// admit takes obj over (see Ownership), normalizing it into a new JSON-shaped
// object only when it holds other Go types, and checks the envelope:
// apiVersion, kind and a metadata map.
func admit(obj resource.Object) (resource.Object, error) {
	if obj == nil {
		return nil, badRequest("object is empty")
	}
	var o resource.Object
	if jsonShaped(map[string]any(obj)) {
		o = obj // taken over: see Ownership
	} else {
		v, err := resource.Normalize(map[string]any(obj))
		if err != nil {
			return nil, badRequest(fmt.Sprintf("object is not valid JSON: %v", err))
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, badRequest("object is not a JSON object")
		}
		o = resource.Object(m)
	}
	if s, ok := o["apiVersion"].(string); !ok || s == "" {
		return nil, badRequest("Object 'apiVersion' is missing or not a string")
	}
	if s, ok := o["kind"].(string); !ok || s == "" {
		return nil, badRequest("Object 'Kind' is missing or not a string")
	}
	if md, ok := o["metadata"]; ok && md != nil {
		if _, ok := md.(map[string]any); !ok {
			return nil, badRequest("metadata must be an object")
		}
	} else {
		o["metadata"] = map[string]any{}
	}
	md := o.Metadata()
	for _, f := range []string{"name", "namespace", "generateName", "resourceVersion", "uid"} {
		if v, ok := md[f]; ok && v != nil {
			if _, isString := v.(string); !isString {
				return nil, badRequest(fmt.Sprintf("metadata.%s must be a string", f))
			}
		}
	}
	if err := checkRequestSize(o); err != nil {
		return nil, err
	}
	return o, nil
}

// jsonShaped reports whether v holds only the types an Object may hold.
func jsonShaped(v any) bool {
	switch t := v.(type) {
	case nil, string, bool:
		return true
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0)
	case map[string]any:
		for _, e := range t {
			if !jsonShaped(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range t {
			if !jsonShaped(e) {
				return false
			}
		}
		return true
	}
	return false
}

// labelNamespaceName sets the label the API server puts on every Namespace
// (kubernetes.io/metadata.name, Kubernetes 1.21+), so namespaceSelectors
// can select Namespaces by name.
func labelNamespaceName(o resource.Object) {
	md := o.Metadata()
	labels, ok := md["labels"].(map[string]any)
	if !ok {
		if md["labels"] != nil {
			return // not a map: validation reports it
		}
		labels = map[string]any{}
		md["labels"] = labels
	}
	labels["kubernetes.io/metadata.name"] = o.Name()
}
