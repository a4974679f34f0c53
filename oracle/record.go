package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/genplay/genplay/internal/oracle"
	"github.com/genplay/genplay/internal/oracle/corpus"
)

// source is one scenario of the corpus.
type source struct {
	name  string            // the recording's name
	path  string            // the scenario file, relative to the repository
	text  string            // its bytes
	files map[string]string // the other files of its folder (dir tests)
}

// readCorpus reads the scenarios: a .yaml file is one scenario; a folder holds
// chainsaw tests (a chainsaw-test.yaml with its files) or scenario files.
func readCorpus(repo string, args []string) ([]source, error) {
	var out []source
	for _, a := range args {
		full := a
		if !filepath.IsAbs(a) {
			full = filepath.Join(repo, a)
		}
		info, err := os.Stat(full)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			s, err := readSource(repo, full, false)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
			continue
		}
		err = filepath.WalkDir(full, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if _, err := os.Stat(filepath.Join(p, "chainsaw-test.yaml")); err == nil {
					s, err := readSource(repo, filepath.Join(p, "chainsaw-test.yaml"), true)
					if err != nil {
						return err
					}
					out = append(out, s)
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".golden.yaml") {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if regexp.MustCompile(`(?m)^kind: Test\s*$`).Match(b) {
					s, err := readSource(repo, p, false)
					if err != nil {
						return err
					}
					out = append(out, s)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func readSource(repo, file string, dir bool) (source, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return source{}, err
	}
	s := source{text: string(b)}
	rel, err := filepath.Rel(repo, file)
	switch from := corpus.From(s.text); {
	case from != "": // a scenario a test made (internal/oracle/corpus): named by its file, from what it says
		s.path, s.name = from, recordingName(filepath.Base(file))
	case err == nil && !strings.HasPrefix(rel, ".."):
		s.path = filepath.ToSlash(rel)
		s.name = recordingName(s.path)
	default:
		s.path, s.name = file, recordingName(filepath.Base(file))
	}
	if dir {
		s.files = map[string]string{}
		d := filepath.Dir(file)
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || p == file {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			r, _ := filepath.Rel(d, p)
			s.files[filepath.ToSlash(r)] = string(b)
			return nil
		})
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

var nameChars = regexp.MustCompile(`[^a-z0-9]+`)

// recordingName names a recording after its source: site/examples/x.yaml
// is example-x, engine/testdata/chainsaw/policy/y/chainsaw-test.yaml is
// chainsaw-policy-y, engine/testdata/cases/cheatsheet/clusterpolicy/data/
// z/sync-true-orphan-false.yaml is
// cheatsheet-clusterpolicy-data-z-sync-true-orphan-false.
func recordingName(rel string) string {
	rel = strings.TrimSuffix(strings.TrimSuffix(rel, "/chainsaw-test.yaml"), ".yaml")
	for _, p := range []struct{ prefix, name string }{
		{"site/examples/", "example-"},
		{"engine/testdata/chainsaw/", "chainsaw-"},
		{"engine/testdata/scenarios/", "scenario-"},
		{"engine/testdata/cases/", ""},
		{"engine/testdata/", ""},
	} {
		if strings.HasPrefix(rel, p.prefix) {
			rel = p.name + strings.TrimPrefix(rel, p.prefix)
			break
		}
	}
	return strings.Trim(nameChars.ReplaceAllString(strings.ToLower(rel), "-"), "-")
}

func family(text string) string {
	gpol := regexp.MustCompile(`(?m)kind:\s*(Namespaced)?GeneratingPolicy\b`).MatchString(text)
	pol := regexp.MustCompile(`(?m)kind:\s*(Cluster)?Policy\s*$`).MatchString(text)
	switch {
	case gpol && pol:
		return "both"
	case gpol:
		return "gpol"
	}
	return "policy"
}

// recorder records scenarios against a live stack.
type recorder struct {
	s      *stack
	self   string // this program's binary, for the hooks
	src    string // the oracle/ folder (versions.sh), for the hooks
	out    string // testdata/oracle/<version>
	runs   int
	settle oracle.Settle
	ev     oracle.Evidence
	work   string // scratch folder
	cache  string // the build cache (-cache), for the hooks
}

// errOtherStack: the scenario does not sleep through periodic scans, and
// the stack's short scan would act in the middle of it.
var errOtherStack = errors.New("recorded on a stack with Kyverno's hourly background scan")

func (rc *recorder) recordAll(ctx context.Context, srcs []source) error {
	var failed []string
	other := 0
	for i, src := range srcs {
		start := time.Now()
		rec, err := rc.record(ctx, src)
		if errors.Is(err, errOtherStack) {
			other++
			continue
		}
		if err != nil {
			fmt.Printf("[%d/%d] %s: not recorded: %v\n", i+1, len(srcs), src.path, err)
			failed = append(failed, src.path)
			continue
		}
		status := "ok"
		if rec.Flaky != "" {
			status = "FLAKY: " + rec.Flaky
		}
		fmt.Printf("[%d/%d] %s -> %s.json: %d runs, %d steps, %s (%s)\n", i+1, len(srcs), src.path, rec.Name, len(rec.Runs),
			len(rec.Runs[0].Steps), status, time.Since(start).Round(time.Second))
		if err := writeJSON(filepath.Join(rc.out, rec.Name+".json"), rec); err != nil {
			return err
		}
	}
	if other > 0 {
		fmt.Printf("%d scenarios that do not sleep through periodic scans left to a stack with Kyverno's hourly scan (this one scans every %s)\n", other, rc.ev.ScanInterval)
	}
	if len(failed) > 0 {
		fmt.Printf("%d scenarios not recorded: %s\n", len(failed), strings.Join(failed, ", "))
	}
	return nil
}

// maxSleep is the longest sleep a recorded scenario may hold.
const maxSleep = 30 * time.Second

func (rc *recorder) record(ctx context.Context, src source) (*oracle.Recording, error) {
	prepared, err := oracle.Prepare(src.text, maxSleep)
	if err != nil {
		return nil, err
	}
	switch scans := oracle.Scans(prepared); {
	case scans > 0 && rc.ev.ScanInterval == "":
		return nil, fmt.Errorf("sleeps through %d periodic background scans (an hour or more): recorded on a stack whose scan is short (make oracle-record ORACLE_SCAN=2m)", scans)
	case scans == 0 && rc.ev.ScanInterval != "":
		return nil, errOtherStack
	}
	rec := &oracle.Recording{Format: oracle.Format, Name: src.name, Source: src.path, SourceSHA256: oracle.SHA256([]byte(src.text)),
		Scenario: prepared, Files: src.files, Family: family(prepared), Evidence: rc.ev, Settle: rc.settle}
	for i := 0; i < rc.runs; i++ {
		run, err := rc.run(ctx, src, prepared, i)
		if err != nil {
			return nil, fmt.Errorf("run %d: %w", i+1, err)
		}
		if i > 0 { // the first run holds whole objects; the others identities and digests
			for s := range run.Steps {
				for o := range run.Steps[s].Objects {
					run.Steps[s].Objects[o].View = nil
				}
			}
		}
		rec.Runs = append(rec.Runs, run)
	}
	rec.Flaky = flaky(rec.Runs)
	return rec, nil
}

// flaky says how runs differ: steps run, objects, their views and fates,
// and steps that did not settle.
func flaky(runs []oracle.Run) string {
	var why []string
	for ri, run := range runs {
		for _, st := range run.Steps {
			if !st.Settled {
				why = append(why, fmt.Sprintf("run %d step %d did not settle in %dms", ri+1, st.Index, st.WaitedMillis))
			}
		}
	}
	first := runs[0]
	for ri, run := range runs[1:] {
		if len(run.Steps) != len(first.Steps) {
			why = append(why, fmt.Sprintf("run %d ran %d steps, run 1 %d", ri+2, len(run.Steps), len(first.Steps)))
			continue
		}
		for s := range run.Steps {
			a, b := digests(first.Steps[s]), digests(run.Steps[s])
			for k, d := range a {
				if b[k] != d {
					why = append(why, fmt.Sprintf("step %d: %s differs in run %d", s, k, ri+2))
				}
			}
			for k := range b {
				if _, ok := a[k]; !ok {
					why = append(why, fmt.Sprintf("step %d: %s only in run %d", s, k, ri+2))
				}
			}
		}
	}
	sort.Strings(why)
	if len(why) > 5 {
		why = append(why[:5], fmt.Sprintf("and %d more", len(why)-5))
	}
	return strings.Join(why, "; ")
}

func digests(st oracle.Step) map[string]string {
	out := map[string]string{}
	for _, o := range st.Objects {
		out[o.Key] = o.Digest
	}
	for _, c := range st.Changes {
		if c.Action != oracle.Updated {
			out["fate "+c.Key] = c.Action
		}
	}
	return out
}

// run runs a prepared scenario once, from a clean cluster, with chainsaw:
// the hooks settle after every operation and snapshot after every step.
func (rc *recorder) run(ctx context.Context, src source, prepared string, n int) (oracle.Run, error) {
	admin, err := rc.s.admin()
	if err != nil {
		return oracle.Run{}, err
	}
	base, err := rc.s.readBaseline()
	if err != nil {
		return oracle.Run{}, err
	}
	if err := reset(ctx, admin, base); err != nil {
		return oracle.Run{}, fmt.Errorf("reset: %w", err)
	}
	dir := filepath.Join(rc.work, fmt.Sprintf("%s-%d", src.name, n))
	if err := os.RemoveAll(dir); err != nil {
		return oracle.Run{}, err
	}
	testDir := filepath.Join(dir, "test")
	if err := os.MkdirAll(testDir, 0o755); err != nil {
		return oracle.Run{}, err
	}
	for p, text := range src.files {
		f := filepath.Join(testDir, p)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return oracle.Run{}, err
		}
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			return oracle.Run{}, err
		}
	}
	hook := fmt.Sprintf("%q -cache %q -src %q -instance %d -run %q", rc.self, rc.cache, rc.src, rc.s.instance, dir)
	scan := ""
	if rc.ev.ScanInterval != "" {
		scan = hook + " scan -n %d"
	}
	hooked, err := oracle.Hook(prepared, hook+" settle", hook+" snapshot -step %d", scan)
	if err != nil {
		return oracle.Run{}, err
	}
	if err := os.WriteFile(filepath.Join(testDir, "chainsaw-test.yaml"), []byte(hooked), 0o644); err != nil {
		return oracle.Run{}, err
	}
	if err := writeJSON(filepath.Join(dir, "settle-rule.json"), rc.settle); err != nil {
		return oracle.Run{}, err
	}
	if oracle.Scans(prepared) > 0 {
		if err := rc.alignScans(ctx, dir); err != nil {
			return oracle.Run{}, err
		}
	}
	started := time.Now().UTC()
	out, code := rc.chainsaw(ctx, testDir)
	_ = os.WriteFile(filepath.Join(dir, "chainsaw.log"), []byte(out), 0o644)
	run := oracle.Run{StartedAt: started.Format(time.RFC3339), Chainsaw: "PASS"}
	if code != 0 {
		run.Chainsaw = "FAIL"
		run.Failures = chainsawFailures(out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "step-*.json"))
	sort.Strings(files)
	names := oracle.StepNames(prepared)
	var prev []oracle.Object
	for _, f := range files {
		var st oracle.Step
		if err := readJSON(f, &st); err != nil {
			return run, err
		}
		if st.Index < len(names) {
			st.Name = names[st.Index]
		}
		st.Changes = oracle.Changes(prev, st.Objects)
		prev = st.Objects
		run.Steps = append(run.Steps, st)
	}
	if len(run.Steps) == 0 {
		return run, fmt.Errorf("no step was recorded; chainsaw said:\n%s", lastLines(out, 30))
	}
	return run, nil
}

var failureLine = regexp.MustCompile(`(?i)\|\s*(ERROR|FAIL)\s*\||--- FAIL|Error:`)

func chainsawFailures(out string) []string {
	var l []string
	for _, line := range strings.Split(out, "\n") {
		if failureLine.MatchString(line) && !strings.Contains(line, "settle") && !strings.Contains(line, "snapshot") {
			l = append(l, strings.TrimSpace(line))
		}
	}
	if len(l) > 10 {
		l = l[:10]
	}
	return l
}

// chainsaw runs chainsaw test on a folder against the stack; it returns
// chainsaw's output and exit code. Its timeouts are generous: the machine
// is shared, and the recorder's own waits say how long Kyverno took.
func (rc *recorder) chainsaw(ctx context.Context, testDir string) (string, int) {
	return rc.s.chainsaw(ctx, "test", "--test-dir", testDir, "--namespace", "chainsaw-test", "--skip-delete",
		"--parallel", "1", "--no-color", "--apply-timeout", "1m", "--delete-timeout", "3m", "--exec-timeout", "5m",
		"--assert-timeout", "1m", "--error-timeout", "1m", "--cleanup-timeout", "3m")
}

func (s *stack) chainsaw(ctx context.Context, args ...string) (string, int) {
	out, err := chainsawCmd(ctx, s, args...).CombinedOutput()
	code := 0
	if err != nil {
		code = 1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
	}
	return string(out), code
}

// chainsawCmd is chainsaw against the stack (KUBECONFIG), with its kubectl
// first in PATH for the tests' scripts.
func chainsawCmd(ctx context.Context, s *stack, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, s.bin("chainsaw-"+chainsawVersion, "chainsaw"), args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+s.kubeconfig(),
		"PATH="+s.k8sDir()+":"+os.Getenv("PATH"))
	return cmd
}

// reset deletes everything a scenario left (all but the pristine
// cluster's objects): policies first, so that Kyverno acts on nothing
// else, then namespaces and the rest, and waits until they are gone.
func reset(ctx context.Context, k *kube, base map[string]bool) error {
	o, err := newObserver(ctx, k, base)
	if err != nil {
		return err
	}
	order := func(kind string) int {
		switch kind {
		case "ClusterPolicy", "Policy", "GeneratingPolicy", "NamespacedGeneratingPolicy", "PolicyException":
			return 0
		case "Namespace":
			return 1
		case "CustomResourceDefinition":
			return 3
		}
		return 2
	}
	deadline := time.Now().Add(180 * time.Second)
	for {
		s, err := o.poll(ctx)
		if err != nil {
			return err
		}
		if len(s.objects) == 0 && len(s.urs) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			var left []string
			for _, it := range s.objects {
				left = append(left, objectKey(it))
			}
			return fmt.Errorf("objects left after 180s: %s; updaterequests %v", strings.Join(left, ", "), s.urs)
		}
		sort.SliceStable(s.objects, func(i, j int) bool { return order(str(s.objects[i], "kind")) < order(str(s.objects[j], "kind")) })
		for _, it := range s.objects {
			m := meta(it)
			if m["deletionTimestamp"] != nil {
				continue
			}
			r, ok := o.resourceOf(it)
			if !ok {
				continue
			}
			if err := k.delete(ctx, r, str(m, "namespace"), str(m, "name")); err != nil {
				return fmt.Errorf("delete %s: %w", objectKey(it), err)
			}
		}
		for _, u := range s.urs {
			_ = k.do(ctx, "DELETE", "/apis/kyverno.io/v2/namespaces/kyverno/updaterequests/"+u, nil, nil)
		}
		time.Sleep(time.Second)
	}
}

func (o *observer) resourceOf(it object) (apiResource, bool) {
	for _, r := range o.resources {
		if r.GroupVersion == str(it, "apiVersion") && r.Kind == str(it, "kind") {
			return r, true
		}
	}
	return apiResource{}, false
}

// baseline is the pristine cluster: the UIDs of every object once Kyverno
// is up, before any scenario.
func (s *stack) writeBaseline(ctx context.Context, k *kube) error {
	all, err := k.discover(ctx)
	if err != nil {
		return err
	}
	uids := map[string]bool{}
	for _, r := range all {
		items, err := k.list(ctx, r)
		if err != nil {
			continue
		}
		for _, it := range items {
			uids[str(meta(it), "uid")] = true
		}
	}
	return writeJSON(filepath.Join(s.dir, "baseline.json"), uids)
}

func (s *stack) readBaseline() (map[string]bool, error) {
	m := map[string]bool{}
	return m, readJSON(filepath.Join(s.dir, "baseline.json"), &m)
}
