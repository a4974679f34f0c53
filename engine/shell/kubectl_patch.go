package shell

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// kubectl patch, with the patches it applies: JSON merge patches, JSON
// patches (RFC 6902, with RFC 6901 pointers) and the simple strategic merge
// patches script steps use.

// kubectlPatch runs kubectl patch: -p or --patch-file, on named objects or
// those of -f, each written as the admin.
func (r *runner) kubectlPatch(c *Command, stdin string, o *kubectlOutput) error {
	patchText := c.Patch
	if c.PatchFile != "" {
		if c.PatchFile == "/dev/stdin" || c.PatchFile == "-" {
			patchText = stdin
		} else {
			b, err := r.readFile(c.PatchFile)
			if err != nil {
				o.errorf("error: unable to read patch file: %v", err)
				return nil
			}
			patchText = string(b)
		}
	}
	if strings.TrimSpace(patchText) == "" {
		o.errorf("error: must specify -p to patch")
		return nil
	}
	refs, ok, err := r.callRefs(c, stdin, o, false)
	if !ok || err != nil {
		return err
	}
	docs, diags := source.Parse("patch", []byte(patchText))
	if diags.HasErrors() || len(docs) != 1 {
		o.errorf("error: unable to parse %q: the patch is not JSON or YAML", strings.TrimSpace(patchText))
		return nil
	}
	patch := docs[0].Value
	for _, ref := range refs {
		live, err := r.s.Store().Get(ref)
		if err != nil {
			o.serverError(err, "")
			continue
		}
		next, err := applyPatch(c.PatchType, live, patch)
		if err != nil {
			var u *scenario.UnsupportedError
			if errors.As(err, &u) {
				return err
			}
			o.errorf("error: %v", err)
			continue
		}
		out, _, warnings, err := r.kubectlWrite(scenario.OpUpdate, next, nil, nil)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		name := typeName(r.kindInfo(live), live.Name())
		switch {
		case err != nil:
			o.serverError(err, "")
		case out == nil:
			fmt.Fprintf(&o.stdout, "%s patched (no change)\n", name)
		default:
			fmt.Fprintf(&o.stdout, "%s patched\n", name)
		}
	}
	return nil
}

// applyPatch applies a merge, strategic or JSON patch to a copy of live.
func applyPatch(patchType string, live resource.Object, patch any) (resource.Object, error) {
	next := live.DeepCopy()
	switch patchType {
	case "", "strategic", "merge":
		pm, ok := patch.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a %s patch must be an object", orDefault(patchType, "strategic"))
		}
		if patchType != "merge" && listsCollide(pm, map[string]any(live)) {
			return nil, &scenario.UnsupportedError{Reason: "patches a list with a strategic merge patch; genplay does not know the merge keys of Kubernetes types (use --type merge or json)"}
		}
		if patchType != "merge" && hasDirectives(pm) {
			return nil, &scenario.UnsupportedError{Reason: "uses strategic merge patch directives ($patch, $retainKeys, ...), which genplay does not simulate"}
		}
		resource.MergePatch(map[string]any(next), pm)
		return next, nil
	case "json":
		ops, ok := patch.([]any)
		if !ok {
			return nil, fmt.Errorf("a json patch must be a list of operations")
		}
		doc := any(map[string]any(next))
		for i, op := range ops {
			var err error
			doc, err = jsonPatchOp(doc, op)
			if err != nil {
				return nil, fmt.Errorf("json patch operation %d: %w", i, err)
			}
		}
		m, ok := doc.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("the json patch did not leave an object")
		}
		return resource.Object(m), nil
	}
	return nil, fmt.Errorf("--type must be one of [json merge strategic], not %q", patchType)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// listsCollide reports whether a strategic patch sets a list where the live
// object already has a non-empty list (where merge keys would matter).
func listsCollide(patch, live map[string]any) bool {
	for k, pv := range patch {
		lv := live[k]
		switch p := pv.(type) {
		case map[string]any:
			if lm, ok := lv.(map[string]any); ok && listsCollide(p, lm) {
				return true
			}
		case []any:
			if l, ok := lv.([]any); ok && len(l) > 0 {
				return true
			}
		}
	}
	return false
}

func hasDirectives(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.HasPrefix(k, "$") || hasDirectives(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasDirectives(e) {
				return true
			}
		}
	}
	return false
}

// jsonPatchOp applies one RFC 6902 operation.
func jsonPatchOp(doc any, op any) (any, error) {
	m, ok := op.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	kind, _ := m["op"].(string)
	p, _ := m["path"].(string)
	tokens, err := pointer(p)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "add", "replace":
		v, ok := m["value"]
		if !ok {
			return nil, fmt.Errorf("%s needs a value", kind)
		}
		return pointerSet(doc, tokens, resource.DeepCopyValue(v), kind == "add")
	case "remove":
		return pointerRemove(doc, tokens)
	case "test":
		got, err := pointerGet(doc, tokens)
		if err != nil {
			return nil, err
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(m["value"])
		if !bytes.Equal(a, b) {
			return nil, fmt.Errorf("test failed at %s", p)
		}
		return doc, nil
	}
	return nil, &scenario.UnsupportedError{Reason: "uses the json patch operation " + kind + ", which genplay does not simulate"}
}

func pointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("path %q does not start with /", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

func pointerGet(doc any, tokens []string) (any, error) {
	cur := doc
	for _, t := range tokens {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[t]
			if !ok {
				return nil, fmt.Errorf("%s: not found", t)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("%s: index out of range", t)
			}
			cur = x[i]
		default:
			return nil, fmt.Errorf("%s: not a container", t)
		}
	}
	return cur, nil
}

func pointerSet(doc any, tokens []string, v any, add bool) (any, error) {
	if len(tokens) == 0 {
		return v, nil
	}
	parent, err := pointerGet(doc, tokens[:len(tokens)-1])
	if err != nil {
		return nil, err
	}
	t := tokens[len(tokens)-1]
	switch x := parent.(type) {
	case map[string]any:
		if _, ok := x[t]; !ok && !add {
			return nil, fmt.Errorf("replace %s: not found", t)
		}
		x[t] = v
		return doc, nil
	case []any:
		var list []any
		if t == "-" && add {
			list = append(x, v)
		} else {
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i > len(x) || (!add && i == len(x)) {
				return nil, fmt.Errorf("%s: index out of range", t)
			}
			if add {
				list = append(append(append([]any{}, x[:i]...), v), x[i:]...)
			} else {
				x[i] = v
				return doc, nil
			}
		}
		return pointerSet(doc, tokens[:len(tokens)-1], list, false)
	}
	return nil, fmt.Errorf("%s: parent is not a container", t)
}

func pointerRemove(doc any, tokens []string) (any, error) {
	if len(tokens) == 0 {
		return nil, fmt.Errorf("cannot remove the whole document")
	}
	parent, err := pointerGet(doc, tokens[:len(tokens)-1])
	if err != nil {
		return nil, err
	}
	t := tokens[len(tokens)-1]
	switch x := parent.(type) {
	case map[string]any:
		if _, ok := x[t]; !ok {
			return nil, fmt.Errorf("remove %s: not found", t)
		}
		delete(x, t)
		return doc, nil
	case []any:
		i, err := strconv.Atoi(t)
		if err != nil || i < 0 || i >= len(x) {
			return nil, fmt.Errorf("%s: index out of range", t)
		}
		list := append(append([]any{}, x[:i]...), x[i+1:]...)
		return pointerSet(doc, tokens[:len(tokens)-1], list, false)
	}
	return nil, fmt.Errorf("%s: parent is not a container", t)
}
