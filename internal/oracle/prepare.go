package oracle

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine"
)

// Prepare turns a scenario (a chainsaw Test) into the test a recording
// runs, on the live cluster and in genplay alike:
//   - assert and error operations go: they change nothing, and on a live
//     cluster a failed one would stop the test before the steps the
//     recording is for (the recorder's settling is the wait they stood
//     for);
//   - catch and cleanup blocks go (diagnostics, and what chainsaw runs
//     after the last step, which genplay does not);
//   - each step is named "sNN <name>", so its operations can be told
//     apart from another step's of the same name;
//   - a step left with no operation sleeps 1ms (chainsaw needs one).
//
// It refuses what a live run cannot honour: a sleep longer than maxSleep
// (genplay's logical clock crosses an hour in no time; chainsaw would
// wait it) unless it sleeps through background scans (an hour or more:
// Scans), and
// scripts that restart Kyverno's Deployments, which do not exist here (the
// controllers run as processes).
func Prepare(text string, maxSleep time.Duration) (string, error) {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return "", err
	}
	if doc["kind"] != "Test" {
		return "", fmt.Errorf("not a chainsaw Test (kind %v)", doc["kind"])
	}
	spec, _ := doc["spec"].(map[string]any)
	delete(spec, "catch")
	steps, _ := spec["steps"].([]any)
	for i, s := range steps {
		step, _ := s.(map[string]any)
		if step == nil {
			return "", fmt.Errorf("step %d is not an object", i+1)
		}
		if _, ok := step["use"]; ok {
			return "", fmt.Errorf("step %d uses a template: not recorded (write it out)", i+1)
		}
		name, _ := step["name"].(string)
		if name == "" {
			name = fmt.Sprintf("step-%d", i+1)
		}
		step["name"] = fmt.Sprintf("s%02d %s", i+1, name)
		delete(step, "catch")
		delete(step, "cleanup")
		for _, block := range []string{"try", "finally"} {
			ops, _ := step[block].([]any)
			var kept []any
			for _, o := range ops {
				op, _ := o.(map[string]any)
				if err := recordable(op, maxSleep); err != nil {
					return "", fmt.Errorf("step %d: %w", i+1, err)
				}
				if op["assert"] != nil || op["error"] != nil {
					continue
				}
				kept = append(kept, o)
			}
			if block == "try" && len(kept) == 0 {
				kept = []any{map[string]any{"sleep": map[string]any{"duration": "1ms"}}}
			}
			if kept == nil {
				delete(step, block)
			} else {
				step[block] = kept
			}
		}
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

var restart = regexp.MustCompile(`rollout\s+restart|deployment/kyverno|kyverno-(admission|background|cleanup|reports)-controller`)

func recordable(op map[string]any, maxSleep time.Duration) error {
	if s, ok := op["sleep"].(map[string]any); ok {
		d, err := time.ParseDuration(fmt.Sprint(s["duration"]))
		if err != nil {
			return fmt.Errorf("sleep %v: %w", s["duration"], err)
		}
		if d > maxSleep && d < ScanInterval {
			return fmt.Errorf("sleeps %s: a live run would wait it (recorded scenarios sleep at most %s, or through periodic scans: an hour or more)", d, maxSleep)
		}
	}
	for _, k := range []string{"script", "command"} {
		if s, ok := op[k].(map[string]any); ok {
			text := fmt.Sprint(s["content"], " ", s["entrypoint"], " ", s["args"])
			if restart.MatchString(text) {
				return fmt.Errorf("a script acts on Kyverno's Deployments, which the oracle runs as processes")
			}
		}
	}
	return nil
}

// StepNames are the names of a prepared test's steps.
func StepNames(prepared string) []string {
	var doc struct {
		Spec struct {
			Steps []struct{ Name string } `json:"steps"`
		} `json:"spec"`
	}
	_ = yaml.Unmarshal([]byte(prepared), &doc)
	var out []string
	for _, s := range doc.Spec.Steps {
		out = append(out, s.Name)
	}
	return out
}

// ScanInterval is Kyverno's default background scan interval
// (BACKGROUND_SCAN_INTERVAL), genplay's: every policy is reconciled once
// per interval.
const ScanInterval = engine.BackgroundScanInterval

// Scans is how many periodic reconciles a prepared test sleeps through:
// a sleep of an hour or more crosses one per whole hour, as in genplay,
// whose scans come every hour from the start (the few seconds a scenario
// spends before its sleep do not change the count; what the sleep lasts
// beyond its whole hours holds no scan). A live run honours them on a
// stack whose background scan is short, waiting for that many reconciles
// in place of each such sleep (Hook's scan).
func Scans(prepared string) int {
	n := 0
	for _, op := range operations(prepared) {
		if d, ok := hourSleep(op); ok {
			n += d
		}
	}
	return n
}

// hourSleep is the number of scan intervals a sleep operation crosses,
// when it lasts one or more.
func hourSleep(op map[string]any) (int, bool) {
	s, ok := op["sleep"].(map[string]any)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(fmt.Sprint(s["duration"]))
	if err != nil || d < ScanInterval {
		return 0, false
	}
	return int(d / ScanInterval), true
}

func operations(prepared string) []map[string]any {
	var doc struct {
		Spec struct {
			Steps []map[string][]map[string]any `json:"steps"`
		} `json:"spec"`
	}
	_ = yaml.Unmarshal([]byte(prepared), &doc)
	var out []map[string]any
	for _, st := range doc.Spec.Steps {
		out = append(out, st["try"]...)
		out = append(out, st["finally"]...)
	}
	return out
}

// Hook adds the recorder's operations to a prepared test: settle after
// each operation of a step but its last (so that Kyverno has reacted
// before the next one, as genplay's Kyverno reacts within the operation
// that caused it), and snapshot, which settles first, last in the step's
// finally block (run whether or not the step failed). A sleep of an hour
// or more becomes scan, which waits for as many periodic reconciles of the
// live background controller as it crosses (Scans). settle, snapshot
// and scan are shell commands; snapshot's %d is the step's index (from
// 0), scan's the number of reconciles.
//
// A delete of one object by name becomes kubectl delete --wait=false
// (LiveDelete): chainsaw's delete waits until a Get of that name is
// NotFound, and a downstream Kyverno recreates at once never is, so the
// step failed or passed by a race (the settle after it waits for the
// deletion instead). genplay runs the scenario's own delete.
func Hook(prepared, settle, snapshot, scan string) (string, error) {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(prepared), &doc); err != nil {
		return "", err
	}
	spec, _ := doc["spec"].(map[string]any)
	steps, _ := spec["steps"].([]any)
	script := func(cmd string) map[string]any {
		return map[string]any{"script": map[string]any{"content": cmd, "timeout": "5m"}}
	}
	for i, s := range steps {
		step := s.(map[string]any)
		try, _ := step["try"].([]any)
		finally, _ := step["finally"].([]any)
		var newTry, newFinally []any
		live := func(o any) (any, error) {
			op, _ := o.(map[string]any)
			if cmd, ok := LiveDelete(op); ok {
				return script(cmd), nil
			}
			n, ok := hourSleep(op)
			if !ok {
				return o, nil
			}
			if scan == "" {
				return nil, fmt.Errorf("step %d sleeps through %d periodic scans: record it on a stack whose background scan is short", i+1, n)
			}
			return script(strings.ReplaceAll(scan, "%d", fmt.Sprint(n))), nil
		}
		for j, o := range try {
			o, err := live(o)
			if err != nil {
				return "", err
			}
			newTry = append(newTry, o)
			if j < len(try)-1 || len(finally) > 0 {
				newTry = append(newTry, script(settle))
			}
		}
		for j, o := range finally {
			o, err := live(o)
			if err != nil {
				return "", err
			}
			newFinally = append(newFinally, o)
			if j < len(finally)-1 {
				newFinally = append(newFinally, script(settle))
			}
		}
		step["try"] = newTry
		step["finally"] = append(newFinally, script(strings.ReplaceAll(snapshot, "%d", fmt.Sprint(i))))
	}
	out, err := yaml.Marshal(doc)
	return string(out), err
}

// safeArg is what LiveDelete puts on a command line unquoted.
var safeArg = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.-]*$`)

// LiveDelete is the kubectl command that does a chainsaw delete of one
// object by reference (apiVersion, kind, name, and namespace or the
// test's) without waiting for the name to be gone, or false when the
// operation is anything else (a file, a label selector, expectations, a
// propagation policy), which stays chainsaw's.
func LiveDelete(op map[string]any) (string, bool) {
	del, ok := op["delete"].(map[string]any)
	if !ok || len(del) != 1 {
		return "", false
	}
	ref, ok := del["ref"].(map[string]any)
	if !ok {
		return "", false
	}
	field := map[string]string{}
	for k, v := range ref {
		s, ok := v.(string)
		if !ok || (k != "apiVersion" && k != "kind" && k != "name" && k != "namespace") || !safeArg.MatchString(strings.ReplaceAll(s, "/", ".")) {
			return "", false
		}
		field[k] = s
	}
	if field["apiVersion"] == "" || field["kind"] == "" || field["name"] == "" {
		return "", false
	}
	resource := field["kind"] // the core group: the kind alone
	if group, version, ok := strings.Cut(field["apiVersion"], "/"); ok {
		resource += "." + version + "." + group
	}
	ns := `"$NAMESPACE"` // chainsaw's test namespace, as its delete uses
	if field["namespace"] != "" {
		ns = field["namespace"]
	}
	return fmt.Sprintf("kubectl delete %s %s -n %s --wait=false --ignore-not-found", resource, field["name"], ns), true
}
