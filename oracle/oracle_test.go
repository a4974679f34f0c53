package main

import (
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRecordingNamesFollowTheirSources(t *testing.T) {
	for src, want := range map[string]string{
		"site/examples/default-deny-netpol.yaml":                                                         "example-default-deny-netpol",
		"engine/testdata/chainsaw/policy/delete-policy/chainsaw-test.yaml":                               "chainsaw-policy-delete-policy",
		"engine/testdata/scenarios/netpol-sync.yaml":                                                     "scenario-netpol-sync",
		"engine/testdata/cases/cheatsheet/clusterpolicy/data/policy-deleted/sync-true-orphan-false.yaml": "cheatsheet-clusterpolicy-data-policy-deleted-sync-true-orphan-false",
		"engine/testdata/cases/kyverno-cli/dotted-context-name.yaml":                                     "kyverno-cli-dotted-context-name",
	} {
		if got := recordingName(src); got != want {
			t.Errorf("recordingName(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestVersionsComeFromVersionsSh(t *testing.T) {
	if err := readVersions("."); err != nil {
		t.Fatal(err)
	}
	if etcdVersion != "v3.6.8" || chainsawVersion != "v0.2.14" {
		t.Errorf("versions %s %s", etcdVersion, chainsawVersion)
	}
}

func TestKyvernoLogsItsVersion(t *testing.T) {
	f := filepath.Join(t.TempDir(), "log")
	// As Kyverno v1.19 logs it (--loggingFormat=text), colours and all.
	line := "\x1b[90m2026-12-02T02:47:19Z\x1b[0m \x1b[34mTRC\x1b[0m \x1b[1mpkg/version/version.go:49\x1b[0m\x1b[36m >\x1b[0m version \x1b[36mhash=\x1b[0m--- \x1b[36mlogger=\x1b[0msetup/version \x1b[36mv=\x1b[0m2 \x1b[36mversion=\x1b[0mv1.19.1\n"
	if err := os.WriteFile(f, []byte("starting\n"+line), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := logVersion(f); got != "v1.19.1" {
		t.Errorf("logVersion = %q", got)
	}
}

func TestChainsawConfigDropsWhatV0214DoesNotKnow(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".chainsaw.yaml")
	text := "apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nspec:\n  namespace:\n    fastDelete: true\n    template: {}\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := chainsawConfig(cfg, filepath.Join(dir, "out.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if strings.Contains(string(b), "fastDelete") || !strings.Contains(string(b), "template: {}") {
		t.Errorf("config:\n%s", b)
	}
	if got := findConfig(dir); got != cfg {
		t.Errorf("findConfig = %q", got)
	}
}

func TestCertificatesChainToTheCA(t *testing.T) {
	dir := t.TempDir()
	p, err := newPKI(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.issue("apiserver", "kube-apiserver", nil, true); err != nil {
		t.Fatal(err)
	}
	if err := p.issue("bg", saUser(saBg), []string{"system:serviceaccounts"}, false); err != nil {
		t.Fatal(err)
	}
	ca, _ := os.ReadFile(filepath.Join(dir, "ca.crt"))
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		t.Fatal("ca.crt")
	}
	for name, usage := range map[string]x509.ExtKeyUsage{"apiserver": x509.ExtKeyUsageServerAuth, "bg": x509.ExtKeyUsageClientAuth} {
		b, _ := os.ReadFile(filepath.Join(dir, name+".crt"))
		block, _ := pem.Decode(b)
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{usage}}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if name == "bg" && c.Subject.CommonName != "system:serviceaccount:kyverno:kyverno-background-controller" {
			t.Errorf("the background controller's user is %q", c.Subject.CommonName)
		}
	}
	kc, err := p.kubeconfig("bg", "https://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(kc)
	if !strings.Contains(string(b), filepath.Join(dir, "bg.crt")) {
		t.Errorf("kubeconfig:\n%s", b)
	}
}
