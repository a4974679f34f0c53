//go:build !(js && wasm)

package shell

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/certificates"
	"github.com/genplay/genplay/engine/pki"
)

// Kubeconfigs and credentials: chainsaw writes a kubeconfig for every
// script and command operation and points $KUBECONFIG at it; kubectl
// reads the file $KUBECONFIG (or --kubeconfig) names from the scratch
// folder, picks a context (--context, else current-context), and sends
// the client certificate of its user, which the API server authenticates
// (package certificates). This file is in the native builds; the
// browser's builds leave it out (identity_wasm.go).

// kubeconfigMissing is "" in builds that have kubeconfigs.
const kubeconfigMissing = ""

// server is the simulated API server's address in kubeconfigs, as kind
// publishes it.
const server = "https://127.0.0.1:6443"

// kubeconfig is a kubeconfig file (client-go's clientcmd v1 Config), with
// the fields kubectl writes, in its JSON names.
type kubeconfig struct {
	Kind           string         `json:"kind,omitempty"`
	APIVersion     string         `json:"apiVersion,omitempty"`
	Preferences    map[string]any `json:"preferences"`
	Clusters       []namedCluster `json:"clusters"`
	Users          []namedUser    `json:"users"`
	Contexts       []namedContext `json:"contexts"`
	CurrentContext string         `json:"current-context"`
	Extensions     []any          `json:"extensions,omitempty"`
}

type namedCluster struct {
	Name    string      `json:"name"`
	Cluster clusterInfo `json:"cluster"`
}

type clusterInfo struct {
	Server                   string `json:"server"`
	TLSServerName            string `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthority     string `json:"certificate-authority,omitempty"`
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	ProxyURL                 string `json:"proxy-url,omitempty"`
	DisableCompression       bool   `json:"disable-compression,omitempty"`
	Extensions               []any  `json:"extensions,omitempty"`
}

type namedContext struct {
	Name    string      `json:"name"`
	Context contextInfo `json:"context"`
}

type contextInfo struct {
	Cluster    string `json:"cluster"`
	User       string `json:"user"`
	Namespace  string `json:"namespace,omitempty"`
	Extensions []any  `json:"extensions,omitempty"`
}

type namedUser struct {
	Name string   `json:"name"`
	User userInfo `json:"user"`
}

type userInfo struct {
	ClientCertificate     string              `json:"client-certificate,omitempty"`
	ClientCertificateData []byte              `json:"client-certificate-data,omitempty"`
	ClientKey             string              `json:"client-key,omitempty"`
	ClientKeyData         []byte              `json:"client-key-data,omitempty"`
	Token                 string              `json:"token,omitempty"`
	TokenFile             string              `json:"tokenFile,omitempty"`
	As                    string              `json:"as,omitempty"`
	AsUID                 string              `json:"as-uid,omitempty"`
	AsGroups              []string            `json:"as-groups,omitempty"`
	AsUserExtra           map[string][]string `json:"as-user-extra,omitempty"`
	Username              string              `json:"username,omitempty"`
	Password              string              `json:"password,omitempty"`
	AuthProvider          any                 `json:"auth-provider,omitempty"`
	Exec                  any                 `json:"exec,omitempty"`
	Extensions            []any               `json:"extensions,omitempty"`
}

func (k *kubeconfig) context(name string) *contextInfo {
	for i := range k.Contexts {
		if k.Contexts[i].Name == name {
			return &k.Contexts[i].Context
		}
	}
	return nil
}

func (k *kubeconfig) cluster(name string) *clusterInfo {
	for i := range k.Clusters {
		if k.Clusters[i].Name == name {
			return &k.Clusters[i].Cluster
		}
	}
	return nil
}

func (k *kubeconfig) user(name string) *userInfo {
	for i := range k.Users {
		if k.Users[i].Name == name {
			return &k.Users[i].User
		}
	}
	return nil
}

// marshal is the file as kubectl writes it (clientcmd.Write: JSON turned
// into YAML, keys sorted).
func (k *kubeconfig) marshal() []byte {
	b, err := yaml.Marshal(k)
	if err != nil {
		panic("shell: a kubeconfig does not encode: " + err.Error()) // every field's type is fixed
	}
	return b
}

// parseKubeconfig reads a kubeconfig file as client-go does (unknown
// fields are dropped).
func parseKubeconfig(data []byte) (*kubeconfig, error) {
	k := &kubeconfig{}
	if len(bytes.TrimSpace(data)) == 0 {
		return k, nil
	}
	if err := yaml.Unmarshal(data, k); err != nil {
		return nil, err
	}
	return k, nil
}

// chainsawKubeconfigs caches the kubeconfig chainsaw writes, per admin.
var chainsawKubeconfigs sync.Map

// chainsawKubeconfig is the kubeconfig chainsaw writes for an operation
// (chainsaw's restutils.Save): one cluster, user and context, all named
// chainsaw, with the admin's client certificate; it has no apiVersion or
// kind, and its context no namespace.
func chainsawKubeconfig(admin admission.UserInfo) []byte {
	key := admin.Username + "\x00" + strings.Join(admin.Groups, "\x00")
	if b, ok := chainsawKubeconfigs.Load(key); ok {
		return b.([]byte)
	}
	cert, keyPEM := certificates.Admin(admin)
	k := &kubeconfig{
		CurrentContext: "chainsaw",
		Preferences:    map[string]any{},
		Clusters:       []namedCluster{{Name: "chainsaw", Cluster: clusterInfo{Server: server, CertificateAuthorityData: certificates.CA().CertificatePEM()}}},
		Contexts:       []namedContext{{Name: "chainsaw", Context: contextInfo{Cluster: "chainsaw", User: "chainsaw"}}},
		Users:          []namedUser{{Name: "chainsaw", User: userInfo{ClientCertificateData: cert, ClientKeyData: keyPEM}}},
	}
	b := k.marshal()
	chainsawKubeconfigs.Store(key, b)
	return b
}

// writeKubeconfig writes chainsaw's kubeconfig for the operation to the
// scratch folder (as chainsaw writes a temporary file) and returns its
// path; removeKubeconfig removes it when the operation ends.
func (r *runner) writeKubeconfig() string {
	s := r.scratch()
	s.kubeconfigs++
	p := fmt.Sprintf("/tmp/chainsaw-kubeconfig-%d", s.kubeconfigs)
	if err := s.Mkdir("/tmp", true); err != nil {
		return ""
	}
	if err := s.Write(p, chainsawKubeconfig(r.opts.Admin), false); err != nil {
		return ""
	}
	r.kubeconfig = p
	return p
}

func (r *runner) removeKubeconfig() {
	if r.kubeconfig != "" {
		_ = r.scratch().Remove(r.kubeconfig, false)
		r.kubeconfig = ""
	}
}

// kubeconfigFile is the file kubectl reads: --kubeconfig, else
// $KUBECONFIG ("" when neither names one).
func (r *runner) kubeconfigFile(c *Command) (string, bool, error) {
	if f := last(c.Flags["kubeconfig"]); f != "" {
		return f, true, nil
	}
	v := r.kubeconfigVar()
	if strings.Contains(v, ":") {
		return "", false, unsupported("sets KUBECONFIG to a list of files (" + v + "), which genplay does not merge")
	}
	return v, false, nil
}

// kubeconfigVar is $KUBECONFIG as kubectl sees it: the script's value
// when it set one, else chainsaw's.
func (r *runner) kubeconfigVar() string {
	if v, ok := r.vars["KUBECONFIG"]; ok {
		return v
	}
	return r.env["KUBECONFIG"]
}

// loadKubeconfig reads the kubeconfig kubectl would: a file that does not
// exist is an empty configuration when $KUBECONFIG names it, an error when
// --kubeconfig does.
func (r *runner) loadKubeconfig(c *Command) (*kubeconfig, string, error) {
	file, explicit, err := r.kubeconfigFile(c)
	if err != nil || file == "" {
		return &kubeconfig{}, file, err
	}
	data, err := r.scratch().Read(file)
	if err != nil {
		if explicit {
			return nil, file, kubectlError{fmt.Sprintf("error: stat %s: no such file or directory", file)}
		}
		return &kubeconfig{}, file, nil
	}
	k, err := parseKubeconfig(data)
	if err != nil {
		return nil, file, kubectlError{fmt.Sprintf("error: error loading config file %q: %v", file, err)}
	}
	return k, file, nil
}

// credentials resolves who kubectl c sends its requests as: nil for the
// scenario's admin, else the user the API server authenticates from the
// context's client certificate, and the namespace of the context ("" when
// it sets none). A kubectlError is kubectl's own failure (no such context,
// a certificate the API server refuses); an UnsupportedError what genplay
// cannot simulate (another cluster, tokens).
func (r *runner) credentials(c *Command) (*admission.UserInfo, string, error) {
	flagged := false
	for _, f := range []string{"context", "kubeconfig", "user", "cluster"} {
		flagged = flagged || c.Flags[f] != nil
	}
	if !flagged && r.kubeconfig != "" && r.kubeconfigVar() == r.kubeconfig {
		if data, err := r.scratch().Read(r.kubeconfig); err == nil && bytes.Equal(data, chainsawKubeconfig(r.opts.Admin)) {
			return nil, "", nil // chainsaw's own, untouched: the admin
		}
	}
	k, _, err := r.loadKubeconfig(c)
	if err != nil {
		return nil, "", err
	}
	ctxName := last(c.Flags["context"])
	if ctxName == "" {
		ctxName = k.CurrentContext
	}
	ctx := &contextInfo{}
	if ctxName != "" {
		if ctx = k.context(ctxName); ctx == nil {
			return nil, "", kubectlError{"error: context was not found for specified context: " + ctxName}
		}
	}
	clusterName, userName := ctx.Cluster, ctx.User
	if f := last(c.Flags["cluster"]); f != "" {
		clusterName = f
	}
	if f := last(c.Flags["user"]); f != "" {
		userName = f
	}
	cl := k.cluster(clusterName)
	if cl == nil || cl.Server == "" {
		if clusterName == "" {
			return nil, "", kubectlError{"The connection to the server localhost:8080 was refused - did you specify the right host or port?"}
		}
		return nil, "", kubectlError{fmt.Sprintf("error: no server found for cluster %q", clusterName)}
	}
	if strings.TrimSuffix(cl.Server, "/") != server {
		return nil, "", unsupported("sends requests to " + cl.Server + ", another cluster than the one genplay simulates (" + server + ")")
	}
	if err := r.checkServerCA(cl); err != nil {
		return nil, "", err
	}
	u := k.user(userName)
	if u == nil {
		u = &userInfo{}
	}
	user, err := r.authenticate(u)
	if err != nil {
		return nil, "", err
	}
	if user.Username == r.opts.Admin.Username && slices.Equal(user.Groups, r.opts.Admin.Groups) {
		return nil, ctx.Namespace, nil
	}
	user.Roles, user.ClusterRoles = r.boundRoles(&user)
	return &user, ctx.Namespace, nil
}

// checkServerCA is kubectl's check of the API server's certificate: the
// cluster's CA must be the one the kubeconfig trusts.
func (r *runner) checkServerCA(cl *clusterInfo) error {
	if cl.InsecureSkipTLSVerify {
		return nil
	}
	ca := cl.CertificateAuthorityData
	if len(ca) == 0 && cl.CertificateAuthority != "" {
		b, err := r.scratch().Read(cl.CertificateAuthority)
		if err != nil {
			return kubectlError{fmt.Sprintf("error: unable to read certificate-authority %s: open %s: no such file or directory", cl.CertificateAuthority, cl.CertificateAuthority)}
		}
		ca = b
	}
	if bytes.Contains(ca, certificates.CA().CertificatePEM()) {
		return nil
	}
	return kubectlError{"Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority"}
}

// authenticate is the client's TLS credentials checked by kubectl (the key
// matches the certificate) and the API server's authenticators.
func (r *runner) authenticate(u *userInfo) (admission.UserInfo, error) {
	switch {
	case u.Token != "" || u.TokenFile != "":
		return admission.UserInfo{}, unsupported("authenticates with a bearer token, which genplay does not simulate (only client certificates)")
	case u.Username != "" || u.Password != "":
		return admission.UserInfo{}, unsupported("authenticates with a user name and password (basic authentication, which Kubernetes removed)")
	case u.AuthProvider != nil || u.Exec != nil:
		return admission.UserInfo{}, unsupported("authenticates through an auth provider or exec plugin, which genplay does not run")
	}
	cert, key := u.ClientCertificateData, u.ClientKeyData
	if len(cert) == 0 && u.ClientCertificate != "" {
		b, err := r.scratch().Read(u.ClientCertificate)
		if err != nil {
			return admission.UserInfo{}, kubectlError{fmt.Sprintf("error: unable to read client-cert %s: open %s: no such file or directory", u.ClientCertificate, u.ClientCertificate)}
		}
		cert = b
	}
	if len(key) == 0 && u.ClientKey != "" {
		b, err := r.scratch().Read(u.ClientKey)
		if err != nil {
			return admission.UserInfo{}, kubectlError{fmt.Sprintf("error: unable to read client-key %s: open %s: no such file or directory", u.ClientKey, u.ClientKey)}
		}
		key = b
	}
	if len(cert) == 0 && len(key) == 0 {
		return admission.UserInfo{}, unsupported("sends requests with no credentials (as system:anonymous), which a cluster's RBAC refuses and genplay does not simulate")
	}
	c, err := pki.ParseCertificate(cert)
	if err != nil {
		return admission.UserInfo{}, kubectlError{"error: tls: failed to find any PEM data in certificate input"}
	}
	k, err := pki.ParseKey(key)
	if err != nil {
		return admission.UserInfo{}, kubectlError{"error: tls: failed to find any PEM data in key input"}
	}
	if !k.Public().Equal(c.PublicKey) {
		return admission.UserInfo{}, kubectlError{"error: tls: private key does not match public key"}
	}
	user, err := certificates.Authenticate(cert, r.s.Now())
	if err != nil {
		return admission.UserInfo{}, kubectlError{"error: You must be logged in to the server (Unauthorized)"}
	}
	if u.As != "" || len(u.AsGroups) > 0 {
		return admission.UserInfo{}, unsupported("impersonates through the kubeconfig (as, as-groups), which genplay does not simulate (use kubectl --as)")
	}
	return user, nil
}
