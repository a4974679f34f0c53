package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"sigs.k8s.io/yaml"
)

// stack is one oracle cluster: etcd, kube-apiserver,
// kube-controller-manager and Kyverno's admission, background and cleanup
// controllers, all on loopback, on ports of their own (instance N uses
// 21000+100N and up), with their state under dir.
type stack struct {
	// kubernetesOnly starts etcd, kube-apiserver and
	// kube-controller-manager, not Kyverno (to check the cluster alone).
	kubernetesOnly bool
	cache          string // the build cache (binaries)
	version        string // Kyverno's
	k8s            string // Kubernetes' (kubernetesFor), once known
	// scanInterval is the background controller's
	// BACKGROUND_SCAN_INTERVAL when shortened (empty: Kyverno's hour).
	scanInterval string
	instance     int
	dir          string // run/<instance>: certs, logs, pids, etcd data
}

func newStack(cache, version string, instance int) *stack {
	return &stack{cache: cache, version: version, instance: instance, dir: filepath.Join(cache, "run", strconv.Itoa(instance))}
}

func (s *stack) port(n int) int { return 21000 + 100*s.instance + n }

// The ports, by component.
const (
	portEtcd          = 1
	portEtcdPeer      = 2
	portAPI           = 3
	portKCM           = 4
	portWebhook       = 10
	portAdmMetrics    = 11
	portAdmCRMetrics  = 12
	portBgMetrics     = 20
	portBgCRMetrics   = 21
	portCleanup       = 30
	portCleanMetrics  = 31
	portCleanCRMetric = 32
)

func (s *stack) apiURL() string     { return fmt.Sprintf("https://127.0.0.1:%d", s.port(portAPI)) }
func (s *stack) certs() string      { return filepath.Join(s.dir, "certs") }
func (s *stack) kubeconfig() string { return filepath.Join(s.certs(), "admin.kubeconfig") }
func (s *stack) bin(component, name string) string {
	return filepath.Join(s.cache, component, name)
}
func (s *stack) kyvernoDir() string { return filepath.Join(s.cache, "kyverno-"+s.version) }
func (s *stack) k8sDir() string     { return filepath.Join(s.cache, "kubernetes-"+s.k8s) }

// kubernetesFor is the Kubernetes release Kyverno's build runs on: the
// one whose libraries its go.mod requires, as oracle/build.sh wrote it
// beside Kyverno's binaries (K8S_VERSION in the environment overrides it).
func kubernetesFor(kyvernoDir string) (string, error) {
	if v := os.Getenv("K8S_VERSION"); v != "" {
		return v, nil
	}
	b, err := os.ReadFile(filepath.Join(kyvernoDir, "kubernetes-version"))
	if err != nil {
		return "", fmt.Errorf("which Kubernetes Kyverno runs on: %w (oracle/build.sh writes it)", err)
	}
	return strings.TrimSpace(string(b)), nil
}

func (s *stack) admin() (*kube, error) {
	c := s.certs()
	return newKube(s.apiURL(), filepath.Join(c, "ca.crt"), filepath.Join(c, "admin.crt"), filepath.Join(c, "admin.key"))
}

// The service-account user names Kyverno's controllers run as: the
// admission controller tells the background controller's writes from
// users' by this name.
const (
	kyvernoNS   = "kyverno"
	saAdmission = "kyverno-admission-controller"
	saBg        = "kyverno-background-controller"
	saCleanup   = "kyverno-cleanup-controller"
)

func saUser(sa string) string { return "system:serviceaccount:" + kyvernoNS + ":" + sa }

// evidence is what the live components said about themselves.
type evidence struct {
	Kyverno      string    `json:"kyverno"`      // the version the admission controller logged
	Background   string    `json:"background"`   // the version the background controller logged
	Kubernetes   string    `json:"kubernetes"`   // kube-apiserver's /version gitVersion
	Etcd         string    `json:"etcd"`         // etcd's /version
	Chainsaw     string    `json:"chainsaw"`     // chainsaw version
	StartedAt    time.Time `json:"startedAt"`    // when the stack was up
	StartSeconds float64   `json:"startSeconds"` // how long up took
	Authorizer   string    `json:"authorizer"`   // kube-apiserver's --authorization-mode
	// ScanInterval is the background controller's BACKGROUND_SCAN_INTERVAL
	// when the stack shortened it (up -scan-interval).
	ScanInterval string `json:"scanInterval,omitempty"`
}

func (s *stack) evidenceFile() string { return filepath.Join(s.dir, "evidence.json") }

func (s *stack) readEvidence() (*evidence, error) {
	b, err := os.ReadFile(s.evidenceFile())
	if err != nil {
		return nil, fmt.Errorf("no oracle stack is up (%w): run make oracle", err)
	}
	var e evidence
	return &e, json.Unmarshal(b, &e)
}

// up starts the stack from nothing (a fresh etcd) and waits until Kyverno
// serves its webhooks and its controllers lead.
func (s *stack) up(ctx context.Context) error {
	start := time.Now()
	s.down()
	for _, d := range []string{filepath.Join(s.dir, "etcd"), filepath.Join(s.dir, "certs"), filepath.Join(s.dir, "logs")} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	_ = os.Remove(s.evidenceFile())
	for _, d := range []string{"logs", "pids"} {
		if err := os.MkdirAll(filepath.Join(s.dir, d), 0o755); err != nil {
			return err
		}
	}
	if s.k8s == "" {
		v, err := kubernetesFor(s.kyvernoDir())
		if err != nil {
			return err
		}
		s.k8s = v
	}
	k8s := "kubernetes-" + s.k8s
	need := []string{s.bin("etcd-"+etcdVersion, "etcd"), s.bin(k8s, "kube-apiserver"), s.bin(k8s, "kube-controller-manager"), s.bin(k8s, "kubectl")}
	if !s.kubernetesOnly {
		need = append(need, filepath.Join(s.kyvernoDir(), "kyverno"), filepath.Join(s.kyvernoDir(), "background-controller"),
			s.bin("chainsaw-"+chainsawVersion, "chainsaw"))
	}
	for _, b := range need {
		if _, err := os.Stat(b); err != nil {
			return fmt.Errorf("%s is not built: run oracle/build.sh %s", b, s.version)
		}
	}
	p, err := newPKI(s.certs())
	if err != nil {
		return err
	}
	if err := p.issue("apiserver", "kube-apiserver", nil, true); err != nil {
		return err
	}
	users := map[string][]string{
		"admin":                   {"system:masters"},
		"kube-controller-manager": nil,
		saAdmission:               {"system:serviceaccounts", "system:serviceaccounts:" + kyvernoNS},
		saBg:                      {"system:serviceaccounts", "system:serviceaccounts:" + kyvernoNS},
		saCleanup:                 {"system:serviceaccounts", "system:serviceaccounts:" + kyvernoNS},
	}
	for name, groups := range users {
		user := name
		switch name {
		case "admin":
			user = "oracle-admin"
		case "kube-controller-manager":
			user = "system:kube-controller-manager"
		default:
			user = saUser(name)
		}
		if err := p.issue(name, user, groups, false); err != nil {
			return err
		}
		if _, err := p.kubeconfig(name, s.apiURL()); err != nil {
			return err
		}
	}
	c := s.certs()
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", s.port(portEtcd))
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", s.port(portEtcdPeer))
	if err := s.start("etcd", s.bin("etcd-"+etcdVersion, "etcd"), nil,
		"--name=oracle", "--data-dir="+filepath.Join(s.dir, "etcd"), "--unsafe-no-fsync",
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=oracle="+peerURL, "--listen-metrics-urls=", "--log-level=warn"); err != nil {
		return err
	}
	if err := waitFor(ctx, 60*time.Second, "etcd", func() error { return httpOK(etcdURL + "/health") }); err != nil {
		return err
	}
	authz := "RBAC"
	if err := s.start("kube-apiserver", s.bin(k8s, "kube-apiserver"), nil,
		"--etcd-servers="+etcdURL, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(s.port(portAPI)),
		"--tls-cert-file="+filepath.Join(c, "apiserver.crt"), "--tls-private-key-file="+filepath.Join(c, "apiserver.key"),
		"--client-ca-file="+filepath.Join(c, "ca.crt"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+filepath.Join(c, "sa.pub"), "--service-account-signing-key-file="+filepath.Join(c, "sa.key"),
		"--service-cluster-ip-range=10.96.0.0/24", "--endpoint-reconciler-type=none",
		"--authorization-mode="+authz, "--allow-privileged=true", "--profiling=false", "--v=1"); err != nil {
		return err
	}
	admin, err := s.admin()
	if err != nil {
		return err
	}
	if err := waitFor(ctx, 120*time.Second, "kube-apiserver", func() error { return admin.get(ctx, "/readyz", nil) }); err != nil {
		return err
	}
	if err := s.start("kube-controller-manager", s.bin(k8s, "kube-controller-manager"), nil,
		"--kubeconfig="+filepath.Join(c, "kube-controller-manager.kubeconfig"),
		"--authentication-kubeconfig="+filepath.Join(c, "kube-controller-manager.kubeconfig"),
		"--authorization-kubeconfig="+filepath.Join(c, "kube-controller-manager.kubeconfig"),
		"--bind-address=127.0.0.1", "--secure-port="+strconv.Itoa(s.port(portKCM)),
		"--service-account-private-key-file="+filepath.Join(c, "sa.key"), "--root-ca-file="+filepath.Join(c, "ca.crt"),
		// Each controller as its own service account (the namespace
		// controller may then delete anything in a namespace), as kubeadm
		// runs it.
		"--use-service-account-credentials=true", "--leader-elect=false", "--profiling=false", "--v=1"); err != nil {
		return err
	}
	if s.kubernetesOnly {
		var v struct{ GitVersion string }
		if err := admin.get(ctx, "/version", &v); err != nil {
			return err
		}
		fmt.Printf("oracle: Kubernetes %s is up without Kyverno in %.0fs: KUBECONFIG=%s\n", v.GitVersion, time.Since(start).Seconds(), s.kubeconfig())
		return nil
	}
	if err := s.installKyverno(ctx); err != nil {
		return err
	}
	if err := s.startKyverno(ctx, admin); err != nil {
		return err
	}
	ev := &evidence{StartedAt: time.Now().UTC().Truncate(time.Second), StartSeconds: time.Since(start).Round(100 * time.Millisecond).Seconds(),
		Authorizer: authz, ScanInterval: s.scanInterval}
	var v struct{ GitVersion string }
	if err := admin.get(ctx, "/version", &v); err != nil {
		return err
	}
	ev.Kubernetes = v.GitVersion
	var ev2 map[string]string
	if b, err := httpGet(etcdURL + "/version"); err == nil {
		_ = json.Unmarshal(b, &ev2)
		ev.Etcd = ev2["etcdserver"]
	}
	ev.Kyverno = logVersion(filepath.Join(s.dir, "logs", "kyverno-admission.log"))
	ev.Background = logVersion(filepath.Join(s.dir, "logs", "kyverno-background.log"))
	out, err := exec.Command(s.bin("chainsaw-"+chainsawVersion, "chainsaw"), "version").CombinedOutput()
	if err == nil {
		if m := regexp.MustCompile(`Version:\s*(\S+)`).FindSubmatch(out); m != nil {
			ev.Chainsaw = string(m[1])
		}
	}
	if ev.Kyverno != s.version || ev.Background != s.version || ev.Kubernetes != s.k8s {
		return fmt.Errorf("the live components report Kyverno %q/%q and Kubernetes %q, not %s and %s", ev.Kyverno, ev.Background, ev.Kubernetes, s.version, s.k8s)
	}
	b, _ := json.MarshalIndent(ev, "", "  ")
	if err := os.WriteFile(s.evidenceFile(), append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("oracle: Kyverno %s on Kubernetes %s (etcd %s) is up in %.0fs: KUBECONFIG=%s\n", ev.Kyverno, ev.Kubernetes, ev.Etcd, ev.StartSeconds, s.kubeconfig())
	return nil
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// versionLine finds version=v1.19.0, "version"="v1.19.0" or "version":"v1.19.0".
var versionLine = regexp.MustCompile(`(?:^|[\s{,"])version"?[=:]\s*"?(v\d+\.\d+\.\d+[^" ,}]*)`)

// logVersion is the version a Kyverno controller logged at start
// ("version" "version"="v1.19.0" ...).
func logVersion(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		// Kyverno's text logs are coloured: version=\x1b[0mv1.19.0.
		line := ansi.ReplaceAllString(sc.Text(), "")
		if !strings.Contains(line, "version") {
			continue
		}
		if m := versionLine.FindStringSubmatch(line); m != nil {
			return m[1]
		}
	}
	return ""
}

// e2ePermissions is what Kyverno's own e2e install adds to the admission
// and background controllers' roles (scripts/config/standard/kyverno.yaml:
// {admission,background}Controller.rbac.clusterRole.extraResources),
// aggregated into them by label; genplay's kyverno-e2e permission profile
// is the same.
const e2ePermissions = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: kyverno:background-controller:oracle-e2e
  labels:
    rbac.kyverno.io/aggregate-to-background-controller: "true"
rules:
- apiGroups: ["*"]
  resources: [configmaps, networkpolicies, resourcequotas, secrets, roles, rolebindings, clusterroles, clusterrolebindings, limitranges, namespaces, nodes, nodes/status, pods]
  verbs: [create, update, patch, delete, get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: kyverno:admission-controller:oracle-e2e
  labels:
    rbac.kyverno.io/aggregate-to-admission-controller: "true"
rules:
- apiGroups: ["*"]
  resources: [secrets]
  verbs: [create, update, patch, delete, get, list]
`

// installKyverno applies Kyverno's rendered Helm chart (its CRDs, namespace,
// ConfigMaps, RBAC and Services) and config/crds, server-side, without its
// Deployments: the controllers run here as processes.
func (s *stack) installKyverno(ctx context.Context) error {
	docs, err := manifestDocs(filepath.Join(s.kyvernoDir(), "install-latest-testing.yaml"))
	if err != nil {
		return err
	}
	var keep []string
	for _, d := range docs {
		var o struct{ Kind string }
		if err := yaml.Unmarshal([]byte(d), &o); err != nil || o.Kind == "" || o.Kind == "Deployment" {
			continue
		}
		keep = append(keep, d)
	}
	keep = append(keep, e2ePermissions)
	f := filepath.Join(s.dir, "kyverno-install.yaml")
	if err := os.WriteFile(f, []byte(strings.Join(keep, "\n---\n")), 0o644); err != nil {
		return err
	}
	for _, path := range []string{f, filepath.Join(s.kyvernoDir(), "crds")} {
		args := []string{"apply", "--server-side", "--force-conflicts", "-f", path}
		if strings.HasSuffix(path, "crds") {
			args = append(args, "-R")
		}
		var err error
		for try := 0; try < 5; try++ { // CRDs must be established before the objects of their kinds
			if err = s.kubectl(ctx, args...); err == nil {
				break
			}
			time.Sleep(2 * time.Second)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *stack) kubectl(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(s.k8sDir(), "kubectl"), append([]string{"--kubeconfig=" + s.kubeconfig()}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("kubectl %s: %w\n%s", strings.Join(args, " "), err, lastLines(string(out), 20))
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// manifestDocs splits a multi-document YAML file.
func manifestDocs(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1) {
		if strings.TrimSpace(d) != "" {
			out = append(out, d)
		}
	}
	return out, nil
}

// container is a Deployment's container as the chart renders it.
type container struct {
	Name string
	Args []string
	Env  []struct {
		Name      string
		Value     string
		ValueFrom *struct {
			FieldRef *struct{ FieldPath string } `json:"fieldRef"`
		} `json:"valueFrom"`
	}
}

// deploymentContainer reads the named container of the named Deployment.
func (s *stack) deploymentContainer(deployment, name string) (*container, error) {
	docs, err := manifestDocs(filepath.Join(s.kyvernoDir(), "install-latest-testing.yaml"))
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		var o struct {
			Kind     string
			Metadata struct{ Name string }
			Spec     struct {
				Template struct {
					Spec struct{ Containers []container }
				}
			}
		}
		if err := yaml.Unmarshal([]byte(d), &o); err != nil || o.Kind != "Deployment" || o.Metadata.Name != deployment {
			continue
		}
		for _, c := range o.Spec.Template.Spec.Containers {
			if c.Name == name {
				return &c, nil
			}
		}
	}
	return nil, fmt.Errorf("the chart has no container %s in Deployment %s", name, deployment)
}

// kyvernoProcess starts one of Kyverno's controllers with the chart's flags
// and environment, overriding what running outside the cluster changes.
func (s *stack) kyvernoProcess(name, deployment, containerName, binary, sa string, override map[string]string, extraEnv ...string) error {
	c, err := s.deploymentContainer(deployment, containerName)
	if err != nil {
		return err
	}
	override["kubeconfig"] = filepath.Join(s.certs(), sa+".kubeconfig")
	var args []string
	for _, a := range c.Args {
		key := strings.TrimLeft(strings.SplitN(a, "=", 2)[0], "-")
		if _, ok := override[key]; ok {
			continue
		}
		args = append(args, a)
	}
	keys := make([]string, 0, len(override))
	for k := range override {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "--"+k+"="+override[k])
	}
	env := []string{}
	for _, e := range c.Env {
		v := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			switch e.ValueFrom.FieldRef.FieldPath {
			case "metadata.name":
				v = deployment + "-oracle"
			case "metadata.namespace":
				v = kyvernoNS
			default:
				continue
			}
		}
		env = append(env, e.Name+"="+v)
	}
	return s.start(name, binary, append(env, extraEnv...), args...)
}

func (s *stack) startKyverno(ctx context.Context, admin *kube) error {
	kd := s.kyvernoDir()
	webhook := strconv.Itoa(s.port(portWebhook))
	if err := s.kyvernoProcess("kyverno-admission", "kyverno-admission-controller", "kyverno", filepath.Join(kd, "kyverno"), saAdmission, map[string]string{
		"serverIP":                        "127.0.0.1:" + webhook,
		"webhookServerPort":               webhook,
		"metricsPort":                     strconv.Itoa(s.port(portAdmMetrics)),
		"controllerRuntimeMetricsAddress": "127.0.0.1:" + strconv.Itoa(s.port(portAdmCRMetrics)),
	}); err != nil {
		return err
	}
	bg := map[string]string{
		"metricsPort":                     strconv.Itoa(s.port(portBgMetrics)),
		"controllerRuntimeMetricsAddress": "127.0.0.1:" + strconv.Itoa(s.port(portBgCRMetrics)),
	}
	var bgEnv []string
	if s.scanInterval != "" {
		// A short background scan, and the log line of each periodic
		// reconcile (V(3) in pkg/policy/policy_controller.go
		// forceReconciliation), which the recorder's scan hook waits for.
		bgEnv = append(bgEnv, "BACKGROUND_SCAN_INTERVAL="+s.scanInterval)
		bg["v"] = "3"
	}
	if err := s.kyvernoProcess("kyverno-background", "kyverno-background-controller", "controller", filepath.Join(kd, "background-controller"), saBg, bg, bgEnv...); err != nil {
		return err
	}
	// The cleanup controller runs when it was built (ORACLE_CLEANUP=1).
	controllers := []string{"kyverno-admission", "kyverno-background"}
	if _, err := os.Stat(filepath.Join(kd, "cleanup-controller")); err == nil {
		cleanup := strconv.Itoa(s.port(portCleanup))
		if err := s.kyvernoProcess("kyverno-cleanup", "kyverno-cleanup-controller", "controller", filepath.Join(kd, "cleanup-controller"), saCleanup, map[string]string{
			"serverIP":          "127.0.0.1:" + cleanup,
			"cleanupServerPort": cleanup,
			"metricsPort":       strconv.Itoa(s.port(portCleanMetrics)),
		}); err != nil {
			return err
		}
		controllers = append(controllers, "kyverno-cleanup")
	}
	// Ready: the resource webhooks are registered, and both controllers
	// hold their leases.
	return waitFor(ctx, 300*time.Second, "Kyverno", func() error {
		for _, p := range []string{
			"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kyverno-resource-validating-webhook-cfg",
			"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/kyverno-resource-mutating-webhook-cfg",
			"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kyverno-policy-validating-webhook-cfg",
		} {
			if err := admin.get(ctx, p, nil); err != nil {
				return fmt.Errorf("%s: %w", filepath.Base(p), err)
			}
		}
		for _, lease := range []string{"kyverno-background-controller", "kyverno"} {
			var l struct {
				Spec struct{ HolderIdentity string }
			}
			if err := admin.get(ctx, "/apis/coordination.k8s.io/v1/namespaces/kyverno/leases/"+lease, &l); err != nil {
				return fmt.Errorf("lease %s: %w", lease, err)
			}
			if !strings.HasSuffix(l.Spec.HolderIdentity, "-oracle") && !strings.Contains(l.Spec.HolderIdentity, "-oracle") {
				return fmt.Errorf("lease %s held by %q", lease, l.Spec.HolderIdentity)
			}
		}
		for _, p := range controllers {
			if !s.alive(p) {
				return errStopped{fmt.Errorf("%s exited: %s", p, lastLines(readFile(filepath.Join(s.dir, "logs", p+".log")), 15))}
			}
		}
		return nil
	})
}

func readFile(f string) string {
	b, _ := os.ReadFile(f)
	return string(b)
}

// start runs a component in its own process group, logging to
// logs/<name>.log, its PID in pids/<name>.pid.
func (s *stack) start(name, binary string, env []string, args ...string) error {
	log, err := os.Create(filepath.Join(s.dir, "logs", name+".log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(binary, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", name, err)
	}
	go func() { _ = cmd.Wait(); log.Close() }()
	return os.WriteFile(filepath.Join(s.dir, "pids", name+".pid"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
}

func (s *stack) pid(name string) int {
	b, err := os.ReadFile(filepath.Join(s.dir, "pids", name+".pid"))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

func (s *stack) alive(name string) bool {
	p := s.pid(name)
	return p > 0 && syscall.Kill(p, 0) == nil
}

// components in the order down stops them.
var components = []string{"kyverno-cleanup", "kyverno-background", "kyverno-admission", "kube-controller-manager", "kube-apiserver", "etcd"}

// down stops the components this stack started, by the PIDs it wrote
// (each a process group of its own): SIGTERM, then SIGKILL after 10s.
func (s *stack) down() {
	for _, name := range components {
		p := s.pid(name)
		if p <= 0 {
			continue
		}
		if syscall.Kill(p, 0) == nil {
			_ = syscall.Kill(-p, syscall.SIGTERM)
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) && syscall.Kill(p, 0) == nil {
				time.Sleep(100 * time.Millisecond)
			}
			if syscall.Kill(p, 0) == nil {
				_ = syscall.Kill(-p, syscall.SIGKILL)
			}
		}
		_ = os.Remove(filepath.Join(s.dir, "pids", name+".pid"))
	}
	_ = os.Remove(s.evidenceFile())
}

// rss is the resident memory of each running component, in MiB.
func (s *stack) rss() map[string]int {
	out := map[string]int{}
	for _, name := range components {
		p := s.pid(name)
		if p <= 0 {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmRSS:") {
				f := strings.Fields(l)
				kb, _ := strconv.Atoi(f[1])
				out[name] = kb / 1024
			}
		}
	}
	return out
}

type errStopped struct{ error }

// waitFor polls check every 500ms until it returns nil, an errStopped, or
// the timeout passes.
func waitFor(ctx context.Context, timeout time.Duration, what string, check func() error) error {
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		if err = check(); err == nil {
			return nil
		}
		var stopped errStopped
		if errors.As(err, &stopped) {
			return stopped.error
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s not ready after %s: %w", what, timeout, err)
}

func httpGet(u string) ([]byte, error) {
	res, err := http.Get(u)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var b strings.Builder
	_, err = bufio.NewReader(res.Body).WriteTo(&b)
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("%s: %s", u, res.Status)
	}
	return []byte(b.String()), err
}

func httpOK(u string) error { _, err := httpGet(u); return err }
