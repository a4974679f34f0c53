package fieldref

import (
	"encoding/json"
	"strings"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/internal/schema"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/scenario"
)

// Node is one field: its type, enum values, doc and documentation URL (the
// nearest ancestor's when empty), its properties or items.
type Node struct {
	// Type is object, free (any content), map (string values), array,
	// string, boolean, integer or any.
	Type     string           `json:"t"`
	Doc      string           `json:"doc,omitempty"`
	URL      string           `json:"url,omitempty"`
	Enum     []string         `json:"enum,omitempty"`
	Required []string         `json:"req,omitempty"`
	Props    map[string]*Node `json:"props,omitempty"`
	Items    *Node            `json:"items,omitempty"`
	// Object marks a Kubernetes object (an operation's resource): the
	// editor describes it by its kind.
	Object bool `json:"object,omitempty"`
}

// Reference is the whole description: the root of each family, and which
// family describes a kind.
type Reference struct {
	Kinds map[string]string `json:"kinds"`
	Roots map[string]*Node  `json:"roots"`
}

// The families and the kinds they describe.
const (
	Chainsaw = "chainsaw" // chainsaw.kyverno.io Test
	Policy   = "policy"   // kyverno.io ClusterPolicy, Policy (v1)
	GPol     = "gpol"     // policies.kyverno.io GeneratingPolicy, NamespacedGeneratingPolicy
)

var kinds = map[string]string{
	"Test":                       Chainsaw,
	"ClusterPolicy":              Policy,
	"Policy":                     Policy,
	"GeneratingPolicy":           GPol,
	"NamespacedGeneratingPolicy": GPol,
}

// Build describes every family, with the docs and URLs of docs.go.
func Build() *Reference {
	ref := &Reference{Kinds: kinds, Roots: map[string]*Node{
		Chainsaw: convert(scenario.Schema()),
		Policy:   convert(policy.Schema("v1")),
		GPol:     convert(gpol.Schema()),
	}}
	for family, root := range ref.Roots {
		annotate(family+":", root, "")
	}
	markObjects(ref.Roots[Chainsaw])
	return ref
}

// JSON is the reference as the editor reads it; the same bytes every time.
func JSON() []byte {
	b, err := json.MarshalIndent(Build(), "", " ")
	if err != nil {
		panic(err) // only maps, strings and bools
	}
	return append(b, '\n')
}

var typeNames = map[schema.Type]string{
	schema.TAny: "any", schema.TObject: "object", schema.TFree: "free", schema.TArray: "array",
	schema.TString: "string", schema.TBool: "boolean", schema.TInt: "integer", schema.TStringMap: "map",
}

func convert(s *schema.Schema) *Node {
	n := &Node{Type: typeNames[s.Type], Enum: s.Enum, Required: s.Required}
	if s.Items != nil {
		n.Items = convert(s.Items)
	}
	if len(s.Props) > 0 {
		n.Props = make(map[string]*Node, len(s.Props))
		for k, p := range s.Props {
			n.Props[k] = convert(p)
		}
	}
	return n
}

// annotate sets docs and URLs by path (family:a.b[].c); a node keeps a URL
// only where it differs from its parent's.
func annotate(path string, n *Node, parentURL string) {
	n.Doc = docs[path]
	url := urlFor(path)
	if url != parentURL {
		n.URL = url
	}
	if n.Items != nil {
		annotate(path+"[]", n.Items, url)
	}
	for k, p := range n.Props {
		sep := "."
		if strings.HasSuffix(path, ":") {
			sep = ""
		}
		annotate(path+sep+k, p, url)
	}
}

// urlFor is the URL of the longest prefix of path in urls.
func urlFor(path string) string {
	best := ""
	for prefix := range urls {
		if strings.HasPrefix(path, prefix) && len(prefix) > len(best) {
			best = prefix
		}
	}
	return urls[best]
}

// markObjects marks the resource of every chainsaw operation.
func markObjects(n *Node) {
	if n == nil {
		return
	}
	if r, ok := n.Props["resource"]; ok && n.Props["file"] != nil {
		r.Object = true
	}
	markObjects(n.Items)
	for _, p := range n.Props {
		markObjects(p)
	}
}
