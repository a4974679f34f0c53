// Command oracle runs real Kyverno here and records what it does, for
// genplay's offline comparison (package internal/oracle of genplay).
//
//	oracle up -version v1.19.1        start etcd, kube-apiserver, kube-controller-manager and Kyverno
//	oracle down                        stop them (by the PIDs up wrote)
//	oracle status                      what runs, its versions and memory
//	oracle test DIR...                 chainsaw test DIR against it; chainsaw's own output and verdict
//	oracle record -out DIR SOURCE...   record scenarios (files or folders) into DIR
//
// The binaries come from oracle/build.sh (a cache outside the repository,
// GENPLAY_ORACLE_CACHE, default ~/.cache/genplay/oracle); -instance N runs
// a second stack on other ports. This is its own Go module: nothing here
// enters genplay's module graph, and it imports nothing of Kubernetes (the
// API server is spoken to as JSON over HTTPS).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/genplay/genplay/internal/oracle"
)

var etcdVersion, chainsawVersion string

// readVersions reads oracle/versions.sh, the one place the stack's
// versions are written (Kubernetes' follows Kyverno's: kubernetesFor).
func readVersions(dir string) error {
	f, err := os.Open(filepath.Join(dir, "versions.sh"))
	if err != nil {
		return err
	}
	defer f.Close()
	line := regexp.MustCompile(`^([A-Z0-9_]+)=\$\{[A-Z0-9_]+:-([^}]*)\}`)
	vals := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			vals[m[1]] = m[2]
			if v := os.Getenv(m[1]); v != "" {
				vals[m[1]] = v
			}
		}
	}
	etcdVersion, chainsawVersion = vals["ETCD_VERSION"], vals["CHAINSAW_VERSION"]
	if etcdVersion == "" || chainsawVersion == "" {
		return fmt.Errorf("versions.sh does not name the etcd and chainsaw versions")
	}
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("oracle", flag.ContinueOnError)
	cache := fs.String("cache", envOr("GENPLAY_ORACLE_CACHE", filepath.Join(os.Getenv("HOME"), ".cache/genplay/oracle")), "the build cache and run state")
	instance := fs.Int("instance", 0, "which stack (each has its ports and state)")
	runDir := fs.String("run", "", "the run folder (hooks)")
	srcDir := fs.String("src", "", "the oracle/ folder (default: beside the repository's working directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	if len(args) == 0 {
		return fmt.Errorf("usage: oracle [-instance N] up|down|status|test|record ...")
	}
	dir := *srcDir
	if dir == "" {
		wd, _ := os.Getwd()
		dir = wd
		if _, err := os.Stat(filepath.Join(dir, "versions.sh")); err != nil {
			dir = filepath.Join(wd, "oracle")
		}
	}
	if err := readVersions(dir); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, rest := args[0], args[1:]
	version := func(fs *flag.FlagSet) *string { return fs.String("version", "v1.19.0", "Kyverno's version") }
	switch cmd {
	case "up":
		f := flag.NewFlagSet("up", flag.ContinueOnError)
		v := version(f)
		kubeOnly := f.Bool("kubernetes-only", false, "start etcd, kube-apiserver and kube-controller-manager only")
		scan := f.Duration("scan-interval", 0, "the background controller's BACKGROUND_SCAN_INTERVAL (default: Kyverno's, an hour), for scenarios that sleep through periodic scans")
		if err := f.Parse(rest); err != nil {
			return err
		}
		s := newStack(*cache, *v, *instance)
		s.kubernetesOnly = *kubeOnly
		if *scan != 0 {
			s.scanInterval = scan.String()
		}
		if err := s.up(ctx); err != nil {
			s.down()
			return err
		}
		if s.kubernetesOnly {
			return nil
		}
		admin, err := s.admin()
		if err != nil {
			return err
		}
		return s.writeBaseline(ctx, admin)
	case "down":
		newStack(*cache, "", *instance).down()
		return nil
	case "status":
		s := newStack(*cache, "", *instance)
		ev, err := s.readEvidence()
		if err != nil {
			return err
		}
		fmt.Printf("Kyverno %s on Kubernetes %s (etcd %s, chainsaw %s), up since %s\nKUBECONFIG=%s\n", ev.Kyverno, ev.Kubernetes, ev.Etcd, ev.Chainsaw, ev.StartedAt.Format(time.RFC3339), s.kubeconfig())
		if ev.ScanInterval != "" {
			fmt.Printf("background scan every %s (BACKGROUND_SCAN_INTERVAL)\n", ev.ScanInterval)
		}
		rss := s.rss()
		total := 0
		for _, c := range components {
			fmt.Printf("  %-24s pid %-8d %5d MiB\n", c, s.pid(c), rss[c])
			total += rss[c]
		}
		fmt.Printf("  %-24s %14d MiB\n", "total", total)
		return nil
	case "running":
		// Whether this instance runs Kyverno at -version with
		// -scan-interval (exit 1 when not): make oracle-record asks.
		f := flag.NewFlagSet("running", flag.ContinueOnError)
		v := version(f)
		scan := f.Duration("scan-interval", 0, "the background scan interval it must run with (default: Kyverno's)")
		if err := f.Parse(rest); err != nil {
			return err
		}
		_, ev, err := liveStack(*cache, *instance)
		if err != nil {
			return err
		}
		want := ""
		if *scan != 0 {
			want = scan.String()
		}
		if ev.Kyverno != *v || ev.ScanInterval != want {
			return fmt.Errorf("instance %d runs Kyverno %s (background scan %q), not %s (%q)", *instance, ev.Kyverno, ev.ScanInterval, *v, want)
		}
		return nil
	case "test":
		return testCmd(ctx, *cache, *instance, rest)
	case "record":
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		return recordCmd(ctx, *cache, *instance, abs, rest)
	case "settle", "snapshot":
		return hookCmd(ctx, *cache, *instance, *runDir, cmd, rest)
	case "scan":
		return scanHook(ctx, *cache, *instance, *runDir, rest)
	}
	return fmt.Errorf("unknown command %q", cmd)
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// liveStack is the stack up on this instance, with the version it runs.
func liveStack(cache string, instance int) (*stack, *evidence, error) {
	s := newStack(cache, "", instance)
	ev, err := s.readEvidence()
	if err != nil {
		return nil, nil, err
	}
	s.version, s.k8s = ev.Kyverno, ev.Kubernetes
	for _, c := range components {
		if !s.alive(c) && (c != "kyverno-cleanup" || s.pid(c) != 0) {
			return nil, nil, fmt.Errorf("%s is not running (see %s): make oracle starts the stack again", c, filepath.Join(s.dir, "logs", c+".log"))
		}
	}
	return s, ev, nil
}

// testCmd runs chainsaw on folders of tests against the live stack, from
// the pristine cluster (what a recording or an earlier run left is deleted
// first), and prints chainsaw's own output. Kyverno's .chainsaw.yaml (the
// first found in a folder or above it) is used, less what chainsaw v0.2.14
// does not know.
func testCmd(ctx context.Context, cache string, instance int, args []string) error {
	f := flag.NewFlagSet("test", flag.ContinueOnError)
	extra := f.String("chainsaw-args", "", "more arguments for chainsaw test (space separated)")
	if err := f.Parse(args); err != nil {
		return err
	}
	if f.NArg() == 0 {
		return fmt.Errorf("usage: oracle test DIR...")
	}
	s, ev, err := liveStack(cache, instance)
	if err != nil {
		return err
	}
	cargs := []string{"test", "--parallel", "1", "--no-color"}
	for _, d := range f.Args() {
		cargs = append(cargs, "--test-dir", d)
	}
	if cfg := findConfig(f.Arg(0)); cfg != "" {
		fixed, err := chainsawConfig(cfg, filepath.Join(s.dir, "chainsaw-config.yaml"))
		if err != nil {
			return err
		}
		cargs = append(cargs, "--config", fixed)
		fmt.Printf("oracle: chainsaw configuration %s (less what chainsaw %s does not know)\n", cfg, chainsawVersion)
	}
	if *extra != "" {
		cargs = append(cargs, strings.Fields(*extra)...)
	}
	// From the pristine cluster: what a recording or an earlier test left
	// (a policy, a namespace the tests create) would act in the tests.
	admin, err := s.admin()
	if err != nil {
		return err
	}
	base, err := s.readBaseline()
	if err != nil {
		return err
	}
	if err := reset(ctx, admin, base); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	fmt.Printf("oracle: chainsaw %s against Kyverno %s on Kubernetes %s, from the pristine cluster\n", ev.Chainsaw, ev.Kyverno, ev.Kubernetes)
	cmd := chainsawCmd(ctx, s, cargs...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

func findConfig(dir string) string {
	d, _ := filepath.Abs(dir)
	for {
		for _, n := range []string{".chainsaw.yaml", ".chainsaw.yml"} {
			if _, err := os.Stat(filepath.Join(d, n)); err == nil {
				return filepath.Join(d, n)
			}
		}
		p := filepath.Dir(d)
		if p == d {
			return ""
		}
		d = p
	}
}

// chainsawConfig writes cfg without the fields chainsaw v0.2.14 refuses
// (Kyverno's configuration sets spec.namespace.fastDelete, newer).
func chainsawConfig(cfg, out string) (string, error) {
	b, err := os.ReadFile(cfg)
	if err != nil {
		return "", err
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "fastDelete:") {
			continue
		}
		lines = append(lines, l)
	}
	return out, os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o644)
}

func recordCmd(ctx context.Context, cache string, instance int, srcDir string, args []string) error {
	f := flag.NewFlagSet("record", flag.ContinueOnError)
	out := f.String("out", "", "the recordings' folder (testdata/oracle/<version>)")
	repo := f.String("repo", ".", "the repository the sources are in")
	runs := f.Int("runs", 2, "runs of each scenario")
	quiet := f.Duration("quiet", 2500*time.Millisecond, "settled: no change for this long")
	only := f.String("only", "", "record only the sources whose path or recording name matches this regexp")
	if err := f.Parse(args); err != nil {
		return err
	}
	if *out == "" || f.NArg() == 0 {
		return fmt.Errorf("usage: oracle record -out DIR SOURCE...")
	}
	s, ev, err := liveStack(cache, instance)
	if err != nil {
		return err
	}
	srcs, err := readCorpus(*repo, f.Args())
	if err != nil {
		return err
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			return err
		}
		var kept []source
		for _, src := range srcs {
			if re.MatchString(src.path) || re.MatchString(src.name) {
				kept = append(kept, src)
			}
		}
		srcs = kept
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].path < srcs[j].path })
	// The hooks run a copy of this binary: a rebuild while it records
	// does not change the recorder under it.
	self, err := copySelf(filepath.Join(s.dir, "oracle-hooks"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	rc := &recorder{s: s, self: self, src: srcDir, cache: cache, out: *out, runs: *runs, work: filepath.Join(s.dir, "work"),
		settle: oracle.Settle{QuietSeconds: quiet.Seconds(), PollMillis: 250, TimeoutSeconds: 90},
		ev: oracle.Evidence{Kyverno: ev.Kyverno, Background: ev.Background, Kubernetes: ev.Kubernetes, Etcd: ev.Etcd,
			Chainsaw: ev.Chainsaw, Authorizer: ev.Authorizer, Permissions: "kyverno-e2e", ScanInterval: ev.ScanInterval}}
	fmt.Printf("oracle: recording %d scenarios against Kyverno %s, %d runs each\n", len(srcs), ev.Kyverno, *runs)
	return rc.recordAll(ctx, srcs)
}

// hookCmd is what the recorded test's hooks run: settle waits until the
// cluster has settled; snapshot waits too, then writes the step.
func hookCmd(ctx context.Context, cache string, instance int, runDir, cmd string, args []string) error {
	f := flag.NewFlagSet(cmd, flag.ContinueOnError)
	step := f.Int("step", 0, "the chainsaw step")
	if err := f.Parse(args); err != nil {
		return err
	}
	s := newStack(cache, "", instance)
	admin, err := s.admin()
	if err != nil {
		return err
	}
	base, err := s.readBaseline()
	if err != nil {
		return err
	}
	var rule oracle.Settle
	if err := readJSON(filepath.Join(runDir, "settle-rule.json"), &rule); err != nil {
		return err
	}
	o, err := newObserver(ctx, admin, base)
	if err != nil {
		return err
	}
	st, err := o.settle(ctx, rule)
	if err != nil {
		return err
	}
	rs := runState{dir: runDir}
	// The waits of the step's operations add up into its record.
	var waits struct {
		Waited, Settled int64
		URs             int
		Unsettled       bool
	}
	_ = readJSON(rs.file("waits.json"), &waits)
	waits.Waited += st.Waited.Milliseconds()
	waits.Settled += st.Settled.Milliseconds()
	waits.URs += st.URs
	waits.Unsettled = waits.Unsettled || !st.OK
	if cmd == "settle" {
		return writeJSON(rs.file("waits.json"), waits)
	}
	_ = os.Remove(rs.file("waits.json"))
	uids, err := rs.uidMap(st.LastPoll.objects)
	if err != nil {
		return err
	}
	rec := oracle.Step{Index: *step, WaitedMillis: waits.Waited, SettledMillis: waits.Settled,
		Settled: !waits.Unsettled, UpdateRequests: waits.URs, Objects: recordObjects(st.LastPoll.objects, uids)}
	if !rec.Settled {
		fmt.Fprintf(os.Stderr, "oracle: step %d did not settle (policies not ready: %v; updaterequests %v; terminating %v)\n",
			*step, st.Unready, st.LastPoll.urs, st.LastPoll.terminating)
	}
	return writeJSON(rs.file(fmt.Sprintf("step-%03d.json", *step)), rec)
}

// copySelf copies this program's binary to file.
func copySelf(file string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(self)
	if err != nil {
		return "", err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, b, 0o755); err != nil {
		return "", err
	}
	return file, os.Rename(tmp, file)
}
