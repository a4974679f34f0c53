package scenario

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/resource"
)

// Render applies chainsaw's templating to obj: every string value written
// "(expr)" is replaced by the JMESPath expression's result, evaluated on the
// string's own place in obj with bindings (keys without "$"); "\text\"
// becomes the literal text. Keys are not templated. obj is not modified; a
// copy is returned. Errors name the path of the failing value.
func Render(obj any, bindings map[string]any) (any, error) {
	if o, ok := obj.(resource.Object); ok {
		out, err := mutate("", map[string]any(o), map[string]any(o), bindings)
		if m, ok := out.(map[string]any); ok {
			return resource.Object(m), err
		}
		return out, err
	}
	return mutate("", obj, obj, bindings)
}

// mutate follows chainsaw's templating: the template tree is walked in
// parallel with the value it applies to.
func mutate(path string, tpl, value any, bindings map[string]any) (any, error) {
	switch t := tpl.(type) {
	case map[string]any:
		vm, _ := value.(map[string]any)
		out := make(map[string]any, len(t))
		for _, k := range sortedKeys(t) {
			r, err := mutate(joinPath(path, k), t[k], vm[k], bindings)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		vs, _ := value.([]any)
		out := make([]any, len(t))
		for i := range t {
			var v any
			if i < len(vs) {
				v = vs[i]
			}
			r, err := mutate(path+"["+strconv.Itoa(i)+"]", t[i], v, bindings)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case string:
		expr := assert.ParseTemplate(t)
		out, err := expr.Evaluate(value, bindings)
		if err != nil {
			if path == "" {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if !expr.IsProjection() {
			return out, nil
		}
		return resource.Normalize(out)
	default:
		return tpl, nil
	}
}

var simplePathKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func joinPath(path, key string) string {
	if !simplePathKey.MatchString(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

var identifier = regexp.MustCompile(`^\w+$`)

// ResolveBindings evaluates bindings in order on top of base, as chainsaw
// does when it enters a test, a step or an operation: each value is
// rendered with the bindings before it, and a name written "(expr)" is
// evaluated too. base is not modified. Keys are names without "$".
func ResolveBindings(base map[string]any, list []Binding) (map[string]any, error) {
	out := make(map[string]any, len(base)+len(list))
	for k, v := range base {
		out[k] = v
	}
	for _, b := range list {
		name, err := bindingNameOf(b, out)
		if err != nil {
			return out, err
		}
		v, err := mutate("", b.Value, nil, out)
		if err != nil {
			return out, fmt.Errorf("binding %s: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

func bindingNameOf(b Binding, bindings map[string]any) (string, error) {
	expr := assert.ParseTemplate(b.Name)
	v, err := expr.Evaluate(nil, bindings)
	if err != nil {
		return "", fmt.Errorf("binding name %s: %w", b.Name, err)
	}
	name, ok := v.(string)
	if !ok || !identifier.MatchString(name) {
		return "", fmt.Errorf("invalid binding name %v", v)
	}
	return name, nil
}
