//go:build !js

package differential

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Case is one comparison.
type Case struct {
	Name      string
	Origin    string // the corpus file, or the seed and index of a random case
	Comment   string // what the case covers
	Policy    []byte // the policy documents
	Resources []byte // the triggers, applied in order
	Sources   []byte // objects that exist before the policy (clone sources)
	// Limitation is the ID of the documented CLI limitation the case shows,
	// or "".
	Limitation string
}

// sections of a case file.
const (
	secPolicy     = "policy.yaml"
	secResources  = "resources.yaml"
	secSources    = "sources.yaml"
	secLimitation = "limitation"
)

// ParseCase reads a case file: a comment, then "-- NAME --" sections.
func ParseCase(name string, data []byte) (Case, error) {
	c := Case{Name: name, Origin: name}
	var cur string
	var buf bytes.Buffer
	flush := func() error {
		text := buf.Bytes()
		switch cur {
		case "":
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(string(text)), "\n") {
				lines = append(lines, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#")))
			}
			c.Comment = strings.Join(lines, "\n")
		case secPolicy:
			c.Policy = bytes.Clone(text)
		case secResources:
			c.Resources = bytes.Clone(text)
		case secSources:
			c.Sources = bytes.Clone(text)
		case secLimitation:
			c.Limitation = strings.TrimSpace(string(text))
		default:
			return fmt.Errorf("%s: unknown section %q", name, cur)
		}
		buf.Reset()
		return nil
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			if err := flush(); err != nil {
				return c, err
			}
			cur = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		buf.WriteString(line)
	}
	if err := flush(); err != nil {
		return c, err
	}
	if len(bytes.TrimSpace(c.Policy)) == 0 || len(bytes.TrimSpace(c.Resources)) == 0 {
		return c, fmt.Errorf("%s: a case needs a policy.yaml and a resources.yaml section", name)
	}
	if c.Limitation != "" && limitationByID(c.Limitation) == nil {
		return c, fmt.Errorf("%s: unknown limitation %q (see Limitations)", name, c.Limitation)
	}
	return c, nil
}

// LoadCorpus reads every *.txt case file of dir, in name order.
func LoadCorpus(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Case
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		c, err := ParseCase(strings.TrimSuffix(filepath.Base(f), ".txt"), data)
		if err != nil {
			return nil, err
		}
		c.Origin = f
		out = append(out, c)
	}
	return out, nil
}

// objects parses YAML documents into objects.
func objects(name string, data []byte) ([]resource.Object, error) {
	docs, diags := source.Parse(name, data)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	var out []resource.Object
	for _, d := range docs {
		if m, ok := d.Value.(map[string]any); ok {
			out = append(out, resource.Object(m))
		}
	}
	return out, nil
}

// policyNames are the names of the policies of a case.
func (c Case) policyNames() ([]string, error) {
	objs, err := objects(c.Name+"/policy.yaml", c.Policy)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range objs {
		out = append(out, o.Name())
	}
	return out, nil
}
