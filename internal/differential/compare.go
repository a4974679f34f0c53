//go:build !js

package differential

import (
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Verdicts of a case.
const (
	Agree      = "agree"
	Disagree   = "disagree"
	Limitation = "CLI limitation"
	Broken     = "error" // an engine could not run the case
)

// Outcome is the comparison of one case.
type Outcome struct {
	Case       Case
	Verdict    string
	Limitation string // the limitation's ID, with Verdict Limitation
	// Objects is how many objects the two engines generated together.
	Objects int
	Detail  string // the differences, and both engines' logs
	// Unobserved is set when a case declares a limitation but the engines
	// agree: the limitation may be gone, and the list should say so.
	Unobserved bool
}

// serverFields are metadata the API server (or the CLI's fake client)
// assigns; they say nothing about what Kyverno generated.
var serverFields = []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink"}

// uidLabels hold a uid, which each engine assigns its own way.
var uidLabels = []string{"generate.kyverno.io/trigger-uid", "generate.kyverno.io/source-uid"}

func stripServerFields(o resource.Object) resource.Object {
	o = o.DeepCopy()
	md := o.Metadata()
	for _, k := range serverFields {
		delete(md, k)
	}
	return o
}

// normalize is o as compared: without server fields, and with the uids in
// labels replaced by a placeholder (the CLI's triggers have no uid, so its
// trigger-uid label is empty: limitation cli-trigger-labels).
func normalize(o resource.Object) resource.Object {
	o = stripServerFields(o)
	if l, ok := o.Metadata()["labels"].(map[string]any); ok {
		for _, k := range uidLabels {
			if _, ok := l[k]; ok {
				l[k] = "<uid>"
			}
		}
	}
	if st, ok := o["status"].(map[string]any); ok && len(st) == 0 {
		delete(o, "status")
	}
	return o
}

// diffObjects compares two sets of generated objects, by identity, and
// describes the differences ("" when there are none).
func diffObjects(genplay, kyverno []resource.Object) (string, int) {
	g, k := index(genplay), index(kyverno)
	var b strings.Builder
	seen := map[string]bool{}
	n := 0
	for _, list := range [][]resource.Object{genplay, kyverno} {
		for _, o := range list {
			key := o.Ref().String()
			if seen[key] {
				continue
			}
			seen[key] = true
			n++
			a, inG := g[key]
			c, inK := k[key]
			switch {
			case !inK:
				fmt.Fprintf(&b, "only genplay generated %s\n", key)
			case !inG:
				fmt.Fprintf(&b, "only Kyverno's CLI generated %s\n", key)
			default:
				ya, _ := source.Marshal(map[string]any(normalize(a)))
				yc, _ := source.Marshal(map[string]any(normalize(c)))
				if d := source.Diff("genplay "+key, "kyverno "+key, ya, yc); string(ya) != string(yc) {
					b.WriteString(d)
				}
			}
		}
	}
	return b.String(), n
}

func index(objs []resource.Object) map[string]resource.Object {
	m := make(map[string]resource.Object, len(objs))
	for _, o := range objs {
		m[o.Ref().String()] = o
	}
	return m
}

// Compare runs a case in both engines and compares what they generated.
func Compare(c Case, cli CLI) Outcome {
	out := Outcome{Case: c}
	g := RunGenplayAt(c, cli.Version)
	if g.Err != nil {
		out.Verdict, out.Detail = Broken, "genplay: "+g.Err.Error()
		return out
	}
	var k Result
	var diff string
	if len(c.Sources) > 0 {
		agree, log, err := cli.Test(c, g)
		if err != nil {
			out.Verdict, out.Detail = Broken, "kyverno test: "+err.Error()
			return out
		}
		out.Objects = len(g.Objects)
		k.Log = log
		if !agree {
			diff = "kyverno test did not accept genplay's objects\n"
		}
	} else {
		k = cli.Apply(c)
		if k.Err != nil {
			out.Verdict, out.Detail = Broken, "kyverno: "+k.Err.Error()+"\n"+k.Log
			return out
		}
		diff, out.Objects = diffObjects(g.Objects, k.Objects)
	}
	logs := "--- genplay's log\n" + g.Log + "--- Kyverno's CLI output\n" + k.Log
	if diff == "" {
		out.Verdict = Agree
		out.Unobserved = c.Limitation != ""
		return out
	}
	out.Detail = diff + logs
	if l := explain(c, g, k); l != nil {
		out.Verdict, out.Limitation = Limitation, l.ID
		return out
	}
	out.Verdict = Disagree
	return out
}
