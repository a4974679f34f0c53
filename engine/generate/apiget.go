package generate

import (
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
)

// APIGet answers a Kubernetes API GET path from the simulated cluster, as
// both families' apiCall context entries are answered:
// /api/v1[/namespaces/NS]/RESOURCE[/NAME] or /apis/GROUP/VERSION/...
func (c *Controller) APIGet(path string) (any, error) {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var group, version string
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		version, parts = parts[1], parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group, version, parts = parts[1], parts[2], parts[3:]
	default:
		return nil, fmt.Errorf("apiCall urlPath %q is not a Kubernetes API path", path)
	}
	ns := ""
	if len(parts) >= 3 && parts[0] == "namespaces" {
		ns, parts = parts[1], parts[2:]
	}
	if len(parts) == 0 || len(parts) > 2 {
		return nil, fmt.Errorf("apiCall urlPath %q is not supported", path)
	}
	info, ok := c.store.KindByResource(group, version, parts[0])
	if !ok {
		return nil, fmt.Errorf("apiCall urlPath %q names an unknown resource %q", path, parts[0])
	}
	apiVersion := resource.GVK{Group: info.Group, Version: info.Version}.APIVersion()
	if len(parts) == 2 {
		obj, err := c.store.Get(resource.Ref{APIVersion: apiVersion, Kind: info.Kind, Namespace: ns, Name: parts[1]})
		if err != nil {
			return nil, err
		}
		return map[string]any(obj), nil
	}
	items := []any{}
	for _, obj := range c.store.List(cluster.Query{APIVersion: apiVersion, Kind: info.Kind, Namespace: ns}) {
		items = append(items, map[string]any(obj))
	}
	return map[string]any{"apiVersion": apiVersion, "kind": info.Kind + "List", "metadata": map[string]any{}, "items": items}, nil
}
