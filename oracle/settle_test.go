package main

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genplay/genplay/internal/oracle"
)

// fakeAPI is a tiny API server: namespaces and configmaps (v1), and
// Kyverno's UpdateRequests, as JSON lists that the test changes over time.
type fakeAPI struct {
	mu      sync.Mutex
	objects map[string]object // by list path + name
	deleted []string
}

func (f *fakeAPI) put(listPath string, o object) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objects[listPath+"/"+str(meta(o), "name")] = o
}

func (f *fakeAPI) remove(listPath, name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.objects, listPath+"/"+name)
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	write := func(v any) { _ = json.NewEncoder(w).Encode(v) }
	switch r.URL.Path {
	case "/apis":
		write(map[string]any{"groups": []any{map[string]any{"preferredVersion": map[string]any{"groupVersion": "kyverno.io/v2"}}}})
		return
	case "/api/v1":
		write(map[string]any{"resources": []any{
			map[string]any{"name": "namespaces", "kind": "Namespace", "namespaced": false, "verbs": []string{"list", "delete"}},
			map[string]any{"name": "configmaps", "kind": "ConfigMap", "namespaced": true, "verbs": []string{"list", "delete"}},
			map[string]any{"name": "namespaces/status", "kind": "Namespace", "verbs": []string{"get"}},
		}})
		return
	case "/apis/kyverno.io/v2":
		write(map[string]any{"resources": []any{map[string]any{"name": "updaterequests", "kind": "UpdateRequest", "namespaced": true, "verbs": []string{"list", "delete"}}}})
		return
	}
	if r.Method == http.MethodDelete {
		for k := range f.objects {
			if strings.HasSuffix(r.URL.Path, "/"+k[strings.LastIndex(k, "/")+1:]) && strings.Contains(r.URL.Path, kindPath(k)) {
				delete(f.objects, k)
				f.deleted = append(f.deleted, r.URL.Path)
			}
		}
		write(map[string]any{})
		return
	}
	var items []any
	for k, o := range f.objects {
		if strings.HasPrefix(k, r.URL.Path+"/") {
			items = append(items, o)
		}
	}
	write(map[string]any{"items": items})
}

func kindPath(key string) string {
	parts := strings.Split(key, "/")
	return parts[len(parts)-2]
}

func obj(name, ns, uid, rv string) object {
	m := map[string]any{"name": name, "uid": uid, "resourceVersion": rv}
	if ns != "" {
		m["namespace"] = ns
	}
	return object{"metadata": m}
}

func fakeKube(t *testing.T, f *fakeAPI) *kube {
	t.Helper()
	srv := httptest.NewTLSServer(f)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := newPKI(filepath.Join(dir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.issue("u", "u", nil, false); err != nil {
		t.Fatal(err)
	}
	k, err := newKube(srv.URL, ca, filepath.Join(dir, "pki", "u.crt"), filepath.Join(dir, "pki", "u.key"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Settled waits out UpdateRequests and changes: here a ConfigMap changes
// after 300ms and an UpdateRequest lives 700ms; with 400ms of quiet the
// wait ends after both, and says when the last change came.
func TestSettleWaitsForUpdateRequestsAndQuiet(t *testing.T) {
	f := &fakeAPI{objects: map[string]object{}}
	f.put("/api/v1/namespaces", obj("team", "", "ns-1", "1"))
	f.put("/api/v1/configmaps", obj("cm", "team", "cm-1", "1"))
	f.put("/apis/kyverno.io/v2/namespaces/kyverno/updaterequests", obj("ur-1", "kyverno", "ur-1", "1"))
	k := fakeKube(t, f)
	o, err := newObserver(context.Background(), k, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		f.put("/api/v1/configmaps", obj("cm", "team", "cm-1", "2"))
		time.Sleep(400 * time.Millisecond)
		f.remove("/apis/kyverno.io/v2/namespaces/kyverno/updaterequests", "ur-1")
	}()
	start := time.Now()
	st, err := o.settle(context.Background(), oracle.Settle{QuietSeconds: 0.4, PollMillis: 50, TimeoutSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if !st.OK || st.URs != 1 {
		t.Errorf("settled %v with %d UpdateRequests seen", st.OK, st.URs)
	}
	if took < 700*time.Millisecond {
		t.Errorf("settled after %s, before the UpdateRequest went", took)
	}
	if st.Settled < 250*time.Millisecond || st.Settled > 1200*time.Millisecond {
		t.Errorf("the last change was seen at %s", st.Settled)
	}
	if len(st.LastPoll.objects) != 2 {
		t.Errorf("objects in scope: %v", st.LastPoll.objects)
	}
}

// A wait that never becomes quiet ends at the timeout, unsettled.
func TestSettleTimesOut(t *testing.T) {
	f := &fakeAPI{objects: map[string]object{}}
	f.put("/apis/kyverno.io/v2/namespaces/kyverno/updaterequests", obj("ur-stuck", "kyverno", "ur-1", "1"))
	o, err := newObserver(context.Background(), fakeKube(t, f), map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := o.settle(context.Background(), oracle.Settle{QuietSeconds: 0.1, PollMillis: 50, TimeoutSeconds: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if st.OK {
		t.Error("a pending UpdateRequest let the wait settle")
	}
}

// Reset deletes what is not the pristine cluster's, and keeps what is.
func TestResetDeletesAllButThePristineCluster(t *testing.T) {
	f := &fakeAPI{objects: map[string]object{}}
	f.put("/api/v1/namespaces", obj("default", "", "ns-default", "1"))
	f.put("/api/v1/namespaces", obj("team", "", "ns-team", "1"))
	f.put("/api/v1/configmaps", obj("cm", "team", "cm-1", "1"))
	if err := reset(context.Background(), fakeKube(t, f), map[string]bool{"ns-default": true}); err != nil {
		t.Fatal(err)
	}
	if len(f.objects) != 1 {
		t.Errorf("left: %v", f.objects)
	}
	if _, ok := f.objects["/api/v1/namespaces/default"]; !ok {
		t.Error("the pristine namespace was deleted")
	}
}
