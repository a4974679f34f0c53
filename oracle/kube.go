package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"sort"
	"strings"
	"time"
)

// kube is a minimal client of the API server: JSON over HTTPS with a client
// certificate, discovery, list, get, delete. The harness needs no more, so
// it imports nothing of Kubernetes.
type kube struct {
	base string
	http *http.Client
}

func newKube(base, caFile, certFile, keyFile string) (*kube, error) {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}}, MaxIdleConnsPerHost: 8}
	return &kube{base: base, http: &http.Client{Transport: tr, Timeout: 30 * time.Second}}, nil
}

// apiError is an error status from the API server.
type apiError struct {
	Code    int
	Message string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

func isNotFound(err error) bool {
	e, ok := err.(*apiError)
	return ok && e.Code == http.StatusNotFound
}

func (k *kube) do(ctx context.Context, method, p string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, k.base+p, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := k.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		var st struct{ Message string }
		_ = json.Unmarshal(b, &st)
		if st.Message == "" {
			st.Message = strings.TrimSpace(string(b))
		}
		return &apiError{Code: res.StatusCode, Message: st.Message}
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// apiResource is one listable kind the server serves.
type apiResource struct {
	GroupVersion string // "v1", "apps/v1"
	Kind         string
	Resource     string // plural
	Namespaced   bool
}

func (r apiResource) listPath(ns string) string {
	prefix := "/apis/" + r.GroupVersion
	if r.GroupVersion == "v1" {
		prefix = "/api/v1"
	}
	if r.Namespaced && ns != "" {
		return prefix + "/namespaces/" + url.PathEscape(ns) + "/" + r.Resource
	}
	return prefix + "/" + r.Resource
}

func (r apiResource) objectPath(ns, name string) string {
	return r.listPath(ns) + "/" + url.PathEscape(name)
}

// discover lists every resource the server serves that can be listed and
// deleted (no subresources), each once: at its group's preferred version
// when that serves it, else at the first other version that does (a group's
// preferred version need not serve all its kinds: kyverno.io prefers v2,
// and ClusterPolicy is v1).
func (k *kube) discover(ctx context.Context) ([]apiResource, error) {
	var gvs []string
	gvs = append(gvs, "v1")
	var groups struct {
		Groups []struct {
			Name             string
			PreferredVersion struct{ GroupVersion string }
			Versions         []struct{ GroupVersion string }
		}
	}
	if err := k.do(ctx, http.MethodGet, "/apis", nil, &groups); err != nil {
		return nil, err
	}
	for _, g := range groups.Groups {
		gvs = append(gvs, g.PreferredVersion.GroupVersion)
		for _, v := range g.Versions {
			if v.GroupVersion != g.PreferredVersion.GroupVersion {
				gvs = append(gvs, v.GroupVersion)
			}
		}
	}
	seen := map[string]bool{} // group/resource
	var out []apiResource
	for _, gv := range gvs {
		p := "/apis/" + gv
		if gv == "v1" {
			p = "/api/v1"
		}
		var list struct {
			Resources []struct {
				Name       string
				Kind       string
				Namespaced bool
				Verbs      []string
			}
		}
		if err := k.do(ctx, http.MethodGet, p, nil, &list); err != nil {
			if isNotFound(err) {
				continue // a group being removed (a CRD just deleted)
			}
			return nil, err
		}
		group := ""
		if i := strings.LastIndex(gv, "/"); i >= 0 {
			group = gv[:i]
		}
		for _, r := range list.Resources {
			if strings.Contains(r.Name, "/") || !contains(r.Verbs, "list") || !contains(r.Verbs, "delete") || seen[group+"/"+r.Name] {
				continue
			}
			seen[group+"/"+r.Name] = true
			out = append(out, apiResource{GroupVersion: gv, Kind: r.Kind, Resource: r.Name, Namespaced: r.Namespaced})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GroupVersion+out[i].Kind < out[j].GroupVersion+out[j].Kind })
	return out, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// object is an object as JSON.
type object = map[string]any

func (k *kube) list(ctx context.Context, r apiResource) ([]object, error) {
	var list struct{ Items []object }
	if err := k.do(ctx, http.MethodGet, r.listPath(""), nil, &list); err != nil {
		return nil, err
	}
	for _, o := range list.Items {
		// Lists leave out each item's apiVersion and kind.
		o["apiVersion"], o["kind"] = r.GroupVersion, r.Kind
	}
	return list.Items, nil
}

func (k *kube) get(ctx context.Context, p string, out any) error {
	return k.do(ctx, http.MethodGet, p, nil, out)
}

func (k *kube) delete(ctx context.Context, r apiResource, ns, name string) error {
	err := k.do(ctx, http.MethodDelete, r.objectPath(ns, name), map[string]any{"propagationPolicy": "Background"}, nil)
	if isNotFound(err) {
		return nil
	}
	return err
}

func meta(o object) map[string]any {
	m, _ := o["metadata"].(map[string]any)
	return m
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// objectKey is apiVersion/kind/namespace/name.
func objectKey(o object) string {
	m := meta(o)
	return path.Join(str(o, "apiVersion"), str(o, "kind"), str(m, "namespace"), str(m, "name"))
}
