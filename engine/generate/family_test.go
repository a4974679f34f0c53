package generate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

// recorder keeps what the controller reports.
type recorder struct {
	events  []timeline.Event
	changed int
}

func (r *recorder) Event(e timeline.Event)                { r.events = append(r.events, e) }
func (r *recorder) Changed(before, after resource.Object) { r.changed++ }

// fakeFamily records every call the core makes.
type fakeFamily struct {
	calls []string
	// onAdmit runs for every admission request.
	onAdmit func(admission.Request)
}

func (f *fakeFamily) Name() string                  { return "Fake" }
func (f *fakeFamily) Owns(obj resource.Object) bool { return obj.Kind() == "FakePolicy" }
func (f *fakeFamily) AdmitPolicy(obj, old resource.Object, doc *source.Document) PolicyAdmission {
	return PolicyAdmission{}
}
func (f *fakeFamily) PolicyWritten(old, obj resource.Object)    {}
func (f *fakeFamily) PolicyDeleted(obj resource.Object)         {}
func (f *fakeFamily) Status(obj resource.Object) map[string]any { return nil }
func (f *fakeFamily) Admit(req admission.Request) {
	f.calls = append(f.calls, "admit "+req.Operation+" "+req.User.Username)
	if f.onAdmit != nil {
		f.onAdmit(req)
	}
}
func (f *fakeFamily) Observe(ev WatchEvent) {
	f.calls = append(f.calls, "watch "+ev.Type+" "+ev.Object.Name())
}
func (f *fakeFamily) Override(obj resource.Object, o Override) {}
func (f *fakeFamily) RulePos(policyKey, rule string) (source.Pos, bool) {
	return source.Pos{}, false
}
func (f *fakeFamily) ProcessUpdateRequest(ur resource.Object) bool {
	f.calls = append(f.calls, "update request "+ur.Name())
	return true
}
func (f *fakeFamily) BackgroundScan() { f.calls = append(f.calls, "scan") }
func (f *fakeFamily) Restart()        { f.calls = append(f.calls, "restart") }

// work is a unit of family work that counts its runs.
type work struct {
	key  string
	runs *int
	then func()
}

func (w work) Key() string { return w.key }
func (w work) Run() {
	*w.runs++
	if w.then != nil {
		w.then()
	}
}

func newCore(t *testing.T, opts Options) (*Controller, *recorder) {
	t.Helper()
	clock := cluster.NewClock()
	store := cluster.NewStore(clock)
	rec := &recorder{}
	_, err := store.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "default"}})
	require.NoError(t, err)
	return New(store, clock, variables.New(variables.Options{Now: clock.Now}), rec, opts), rec
}

func configMap(name string) resource.Object {
	return resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "default"},
		"data": map[string]any{"k": "v"}}
}

func TestEveryWriteReachesTheFamiliesAsAdmissionAndAsAWatchEvent(t *testing.T) {
	c, _ := newCore(t, Options{})
	f := &fakeFamily{}
	c.AddFamily(f)
	user := admission.UserInfo{Username: "alice"}

	created, err := c.Create(user, configMap("a"))
	require.NoError(t, err)
	same := created.DeepCopy()
	_, err = c.Update(user, same) // a no-op update: admitted, but no watch event
	require.NoError(t, err)
	changed := created.DeepCopy()
	changed["data"] = map[string]any{"k": "w"}
	_, err = c.Update(admission.UserInfo{Username: admission.BackgroundUser}, changed)
	require.NoError(t, err)
	require.NoError(t, c.Delete(user, created.Ref()))
	c.BackgroundScan()
	c.Restart()

	assert.Equal(t, []string{
		"admit CREATE alice", "watch ADDED a",
		"admit UPDATE alice",
		"admit UPDATE " + admission.BackgroundUser, "watch MODIFIED a",
		"admit DELETE alice", "watch DELETED a",
		"scan", "restart",
	}, f.calls, "Kyverno's own writes reach the families too; a write that changes nothing makes no watch event")
}

func TestFamilyOfFindsTheOwner(t *testing.T) {
	c, _ := newCore(t, Options{})
	f := &fakeFamily{}
	c.AddFamily(f)
	assert.Same(t, f, c.FamilyOf(resource.Object{"kind": "FakePolicy"}))
	assert.Nil(t, c.FamilyOf(resource.Object{"kind": "ClusterPolicy"}), "the JMESPath family is not a Family value")
}

func TestQueuedWorkWithTheSameKeyRunsOnce(t *testing.T) {
	c, _ := newCore(t, Options{})
	var a, b int
	c.Enqueue(work{key: "ur|p|uid-1", runs: &a})
	c.Enqueue(work{key: "ur|p|uid-1", runs: &a})
	c.Enqueue(work{key: "ur|p|uid-2", runs: &b})
	assert.Equal(t, 2, c.Pending())
	c.Reconcile()
	assert.Equal(t, 1, a, "a duplicate of queued work is dropped")
	assert.Equal(t, 1, b)
	c.Enqueue(work{key: "ur|p|uid-1", runs: &a})
	c.Reconcile()
	assert.Equal(t, 2, a, "once processed, the same key can be queued again")
	assert.Equal(t, 3, c.Processed(), "family work counts as UpdateRequests")
}

func TestRunawayFamilyWorkStopsWithDidNotConverge(t *testing.T) {
	c, rec := newCore(t, Options{MaxChainDepth: 10})
	runs := 0
	var next func(i int) Work
	next = func(i int) Work {
		return work{key: "chain|" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), runs: &runs, then: func() { c.Enqueue(next(i + 1)) }}
	}
	c.Enqueue(next(0))
	c.Reconcile()
	assert.Equal(t, 10, runs, "the chain stops at MaxChainDepth")
	assert.Equal(t, 0, c.Pending(), "the rest is dropped")
	require.NotEmpty(t, rec.events)
	last := rec.events[len(rec.events)-1]
	assert.Equal(t, timeline.ActionFailed, last.Action)
	assert.Contains(t, last.Reason, "did not converge: a chain of generated triggers reached 10 UpdateRequests deep")
}

func TestRunWideLimitsStopFamilyWork(t *testing.T) {
	c, rec := newCore(t, Options{MaxRequests: 3})
	runs := 0
	for i := range 5 {
		c.Enqueue(work{key: string(rune('a' + i)), runs: &runs})
	}
	c.Reconcile()
	assert.Equal(t, 3, runs)
	require.ErrorIs(t, c.Exhausted(), ErrLimit)
	assert.Contains(t, rec.events[len(rec.events)-1].Reason, "did not converge: limit exceeded: Kyverno processed 3 UpdateRequests in this run")
	c.Enqueue(work{key: "z", runs: &runs})
	c.Reconcile()
	assert.Equal(t, 3, runs, "once exhausted, the controller processes nothing more")
}

func TestObjectLimitStopsFamilyWork(t *testing.T) {
	c, _ := newCore(t, Options{MaxObjects: 3})
	for _, n := range []string{"a", "b"} {
		_, err := c.store.Create(configMap(n))
		require.NoError(t, err)
	}
	runs := 0
	c.Enqueue(work{key: "k", runs: &runs})
	c.Reconcile()
	assert.Equal(t, 0, runs)
	assert.ErrorContains(t, c.Exhausted(), "the cluster holds 3 objects")
}

func TestFamilyWorkAndUpdateRequestsShareOneQueueInOrder(t *testing.T) {
	c, _ := newCore(t, Options{})
	var order []string
	f := &fakeFamily{}
	f.onAdmit = func(req admission.Request) {
		if req.Object != nil {
			name := req.Object.Name()
			runs := 0
			c.Enqueue(work{key: "admit|" + name, runs: &runs, then: func() { order = append(order, name) }})
		}
	}
	c.AddFamily(f)
	for _, n := range []string{"b", "a", "c"} {
		_, err := c.Create(admission.UserInfo{Username: "alice"}, configMap(n))
		require.NoError(t, err)
	}
	c.Reconcile()
	assert.Equal(t, []string{"b", "a", "c"}, order, "the queue is first in, first out")
}
