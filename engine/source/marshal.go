package source

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/genplay/genplay/engine/resource"
)

// Marshal renders a JSON-shaped value as YAML with sorted keys and a
// two-space indent. The output is stable, so renderings can be diffed.
// Values of other types are first normalised through encoding/json. It is
// MarshalLimit with MaxMarshal.
func Marshal(v any) ([]byte, error) {
	return MarshalLimit(v, MaxMarshal)
}

// MaxMarshal bounds what Marshal writes: far more than any object a
// cluster stores renders to, and little enough that a value built from
// many references to one long string, or a long text of short lines
// nested deep (YAML indents every line of a block scalar again), stops
// with ErrTooLarge instead of taking the process's memory.
const MaxMarshal = 64 << 20

// ErrTooLarge is the error of a rendering that passed its limit.
var ErrTooLarge = errors.New("the YAML is too large")

// MarshalLimit is Marshal that stops, with an error wrapping ErrTooLarge,
// once the output passes limit bytes (at most one string's worth past it).
//
// JSON-shaped values are written by a direct emitter (emit.go) that
// produces yaml.v3's bytes without building nodes; values it does not
// model go through yaml.v3 itself, into a writer that stops at the limit.
func MarshalLimit(v any, limit int) ([]byte, error) {
	out, ok, over := appendFastLimit(make([]byte, 0, 1024), v, limit)
	if over {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	if ok {
		return out, nil
	}
	return marshalYAMLv3Limit(v, limit)
}

func marshalYAMLv3Limit(v any, limit int) ([]byte, error) {
	n, err := toNode(v, 0)
	if err != nil {
		return nil, err
	}
	w := &limitedBuffer{limit: limit}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	err = enc.Encode(n)
	if err == nil {
		err = enc.Close()
	}
	if w.over {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("marshal yaml: %w", err)
	}
	return w.buf.Bytes(), nil
}

// limitedBuffer is a bytes.Buffer that refuses writes past limit (0: no
// limit).
type limitedBuffer struct {
	buf   bytes.Buffer
	limit int
	over  bool
}

func (w *limitedBuffer) Write(p []byte) (int, error) {
	if w.limit > 0 && w.buf.Len()+len(p) > w.limit {
		w.over = true
		return 0, ErrTooLarge
	}
	return w.buf.Write(p)
}

func toNode(v any, depth int) (*yaml.Node, error) {
	if depth > 10*MaxDepth {
		return nil, fmt.Errorf("marshal yaml: value is nested too deeply")
	}
	switch t := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}, nil
	case string:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}
		switch requestedStyle(t) {
		case styleLiteral:
			n.Style = yaml.LiteralStyle
		case styleDoubleQuoted:
			n.Style = yaml.DoubleQuotedStyle
		}
		return n, nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("marshal yaml: unsupported value %v", t)
		}
		if t == math.Trunc(t) && math.Abs(t) < 1e21 {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatFloat(t, 'f', -1, 64)}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(t, 'g', -1, 64)}, nil
	case resource.Object:
		return toNode(map[string]any(t), depth)
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, k := range resource.SortedKeys(t) {
			kn, _ := toNode(k, depth+1)
			vn, err := toNode(t[k], depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, kn, vn)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, e := range t {
			en, err := toNode(e, depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, en)
		}
		return n, nil
	}
	norm, err := resource.Normalize(v)
	if err != nil {
		return nil, fmt.Errorf("marshal yaml: %w", err)
	}
	switch norm.(type) {
	case map[string]any, []any, string, float64, bool, nil:
		return toNode(norm, depth+1)
	}
	return nil, fmt.Errorf("marshal yaml: unsupported type %T", v)
}

// hasTrailingSpace reports a line of s that ends with a space.
func hasTrailingSpace(s string) bool {
	return strings.HasSuffix(s, " ") || strings.Contains(s, " \n")
}

// needsQuote reports strings a YAML 1.1 reader could misread (for example
// "0755" or "1e3" that yaml.v3 would emit plain).
func needsQuote(s string) bool {
	if s == "" || s == "<<" {
		return true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if !strings.ContainsAny(plain, "0123456789") && !strings.ContainsAny(plain, "iInN") {
		return false // ParseFloat needs a digit, inf or nan; skip its error allocation
	}
	if !mayBeNumber(plain) {
		return false
	}
	if _, err := strconv.ParseFloat(plain, 64); err == nil {
		return true
	}
	return false
}
