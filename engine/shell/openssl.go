//go:build !(js && wasm)

package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/genplay/genplay/engine/pki"
)

// openssl, for what scripts make client certificates with: genrsa (a
// key), req (a certificate signing request, or with -x509 a self-signed
// certificate), and x509 (print a certificate's fields, or sign a request
// with a CA of one's own). Keys, requests and certificates are package
// pki's: real PEM and DER around numbers that are no real keys, so the
// same script writes the same bytes every run. What openssl prints
// interactively (a req without -subj asks for the subject) is not
// simulated.

// opensslOptions are each subcommand's options: those that take a value,
// and flags.
var opensslOptions = map[string]struct{ valued, flags []string }{
	"genrsa": {valued: []string{"out"}, flags: []string{"traditional", "3", "F4", "f4", "quiet", "verbose"}},
	"req": {valued: []string{"key", "out", "subj", "newkey", "keyout", "days", "in"},
		flags: []string{"new", "x509", "nodes", "noenc", "sha256", "noout", "subject", "verify", "batch", "utf8"}},
	"x509": {valued: []string{"in", "out", "CA", "CAkey", "days", "CAserial", "set_serial"},
		flags: []string{"req", "noout", "subject", "issuer", "enddate", "startdate", "serial", "sha256", "CAcreateserial", "dates"}},
}

func init() {
	addUtility("openssl", utilSpec{check: checkOpenssl, run: utilOpenssl})
}

// opensslArgs splits an openssl subcommand's arguments into options and
// operands (openssl's options take one dash).
func opensslArgs(args []string) (sub string, opts map[string]string, operands []string, err error) {
	if len(args) == 0 {
		return "", nil, nil, unsupported("runs openssl without a command (its interactive prompt)")
	}
	sub = args[0]
	spec, ok := opensslOptions[sub]
	if !ok {
		return "", nil, nil, unsupported("runs openssl " + sub + ", which genplay does not simulate (only genrsa, req and x509)")
	}
	opts = map[string]string{}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			operands = append(operands, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		switch {
		case slices.Contains(spec.valued, name):
			if i+1 >= len(args) {
				return "", nil, nil, fmt.Errorf("openssl %s: option -%s needs a value", sub, name)
			}
			i++
			opts[name] = args[i]
		case slices.Contains(spec.flags, name):
			opts[name] = ""
		default:
			return "", nil, nil, unsupported("runs openssl " + sub + " " + a + ", an option genplay does not simulate")
		}
	}
	return sub, opts, operands, nil
}

func checkOpenssl(args []string) error {
	sub, opts, operands, err := opensslArgs(args)
	if err != nil {
		return err
	}
	_, hasIn := opts["in"]
	switch sub {
	case "genrsa":
		if len(operands) > 1 {
			return fmt.Errorf("openssl genrsa: extra arguments %v", operands[1:])
		}
	case "req":
		_, isNew := opts["new"]
		_, x509 := opts["x509"]
		_, hasSubj := opts["subj"]
		if (isNew || x509 || !hasIn) && !hasSubj {
			return unsupported("runs openssl req without -subj, which asks for the subject interactively")
		}
		if _, nk := opts["newkey"]; nk && !strings.HasPrefix(opts["newkey"], "rsa:") {
			return unsupported("runs openssl req -newkey " + opts["newkey"] + ": genplay simulates RSA keys only (rsa:BITS)")
		}
	case "x509":
		if !hasIn {
			return unsupported("runs openssl x509 without -in, reading standard input")
		}
	}
	return nil
}

func utilOpenssl(r *runner, args []string, stdin string) (string, string, int) {
	sub, opts, operands, err := opensslArgs(args)
	if err != nil {
		return "", err.Error() + "\n", 1
	}
	o := &opensslRun{r: r, opts: opts}
	switch sub {
	case "genrsa":
		o.genrsa(operands)
	case "req":
		o.req()
	case "x509":
		o.x509()
	}
	return o.stdout.String(), o.stderr.String(), o.status
}

type opensslRun struct {
	r              *runner
	opts           map[string]string
	stdout, stderr strings.Builder
	status         int
}

func (o *opensslRun) failf(format string, args ...any) {
	fmt.Fprintf(&o.stderr, format+"\n", args...)
	o.status = 1
}

// output writes b to -out's file (or to stdout).
func (o *opensslRun) output(opt string, b []byte) bool {
	p, ok := o.opts[opt]
	if !ok {
		o.stdout.Write(b)
		return true
	}
	if err := o.r.scratch().Write(p, b, false); err != nil {
		o.failf("Could not open file or uri for writing %s: %v", p, err)
		return false
	}
	return true
}

func (o *opensslRun) read(p, what string) []byte {
	b, err := o.r.scratch().Read(p)
	if err != nil {
		o.failf("Could not open file or uri for loading %s from %s: %v", what, p, err)
		return nil
	}
	return b
}

// newKey is the next key of the test: keys are numbered in the order the
// test's scripts make them, so every run makes the same ones.
func (o *opensslRun) newKey(bits int) *pki.Key {
	s := o.r.scratch()
	s.keys++
	k, err := pki.GenerateKey([]byte(fmt.Sprintf("openssl key %d", s.keys)), bits)
	if err != nil {
		o.failf("genrsa: %v", err)
		return nil
	}
	return k
}

func (o *opensslRun) genrsa(operands []string) {
	bits := 2048
	if len(operands) == 1 {
		n, err := strconv.Atoi(operands[0])
		if err != nil {
			o.failf("genrsa: Invalid number \"%s\" for option numbits", operands[0])
			return
		}
		bits = n
	}
	k := o.newKey(bits)
	if k == nil {
		return
	}
	out := k.PEM()
	if _, ok := o.opts["traditional"]; ok {
		out = k.PKCS1PEM()
	}
	o.output("out", out)
}

func (o *opensslRun) days() (time.Duration, bool) {
	d := 30
	if v, ok := o.opts["days"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			o.failf("Invalid number \"%s\" for option -days", v)
			return 0, false
		}
		d = n
	}
	return time.Duration(d) * 24 * time.Hour, true
}

func (o *opensslRun) subject() (pki.Name, bool) {
	n, unknown, empty, err := pki.ParseSubject(o.opts["subj"])
	if err != nil {
		o.failf("req: %v. This name is not in that format: '%s'", err, o.opts["subj"])
		return nil, false
	}
	for _, t := range unknown {
		fmt.Fprintf(&o.stderr, "req: Skipping unknown subject name attribute \"%s\"\n", t)
	}
	for _, t := range empty {
		fmt.Fprintf(&o.stderr, "req: No value provided for subject name attribute \"%s\", skipped\n", t)
	}
	return n, true
}

func (o *opensslRun) req() {
	_, isNew := o.opts["new"]
	_, x509 := o.opts["x509"]
	if in, ok := o.opts["in"]; ok && !isNew && !x509 {
		b := o.read(in, "certificate request")
		if b == nil {
			return
		}
		req, err := pki.ParseRequest(b)
		if err != nil {
			o.failf("req: unable to load X509 request: %v", err)
			return
		}
		if _, ok := o.opts["verify"]; ok {
			fmt.Fprintln(&o.stderr, "Certificate request self-signature verify OK")
		}
		if _, ok := o.opts["subject"]; ok {
			fmt.Fprintf(&o.stdout, "subject=%s\n", req.Subject)
		}
		if _, ok := o.opts["noout"]; !ok {
			o.stdout.Write(b)
		}
		return
	}
	var key *pki.Key
	switch {
	case o.opts["key"] != "":
		b := o.read(o.opts["key"], "private key")
		if b == nil {
			return
		}
		k, err := pki.ParseKey(b)
		if err != nil {
			o.failf("req: Could not read private key from %s: %v", o.opts["key"], err)
			return
		}
		key = k
	case o.opts["newkey"] != "":
		bits, err := strconv.Atoi(strings.TrimPrefix(o.opts["newkey"], "rsa:"))
		if err != nil {
			o.failf("req: Invalid number in -newkey %s", o.opts["newkey"])
			return
		}
		if key = o.newKey(bits); key == nil {
			return
		}
		keyout, ok := o.opts["keyout"]
		if !ok {
			keyout = "privkey.pem" // openssl's default
		}
		if err := o.r.scratch().Write(keyout, key.PEM(), false); err != nil {
			o.failf("req: Could not open file or uri for writing %s: %v", keyout, err)
			return
		}
	default:
		if key = o.newKey(2048); key == nil {
			return
		}
		if err := o.r.scratch().Write("privkey.pem", key.PEM(), false); err != nil {
			o.failf("req: Could not open file or uri for writing privkey.pem: %v", err)
			return
		}
	}
	subject, ok := o.subject()
	if !ok {
		return
	}
	if x509 {
		d, ok := o.days()
		if !ok {
			return
		}
		now := o.r.s.Now()
		o.output("out", pki.SelfSigned(key, pki.Template{Subject: subject, NotBefore: now, NotAfter: now.Add(d), IsCA: true}))
		return
	}
	o.output("out", pki.NewRequest(key, subject))
}

func (o *opensslRun) x509() {
	in := o.read(o.opts["in"], "certificate")
	if in == nil {
		return
	}
	if _, ok := o.opts["req"]; ok {
		o.sign(in)
		return
	}
	c, err := pki.ParseCertificate(in)
	if err != nil {
		o.failf("x509: Could not read certificate from %s: %v", o.opts["in"], err)
		return
	}
	o.print(c)
	if _, ok := o.opts["noout"]; !ok {
		o.output("out", in)
	}
}

// print prints the fields -subject, -issuer, -serial and the dates ask
// for, in the order openssl prints them.
func (o *opensslRun) print(c *pki.Certificate) {
	stamp := func(t time.Time) string { return t.UTC().Format("Jan _2 15:04:05 2006 GMT") }
	for _, f := range []string{"serial", "subject", "issuer", "startdate", "enddate", "dates"} {
		if _, ok := o.opts[f]; !ok {
			continue
		}
		switch f {
		case "serial":
			fmt.Fprintf(&o.stdout, "serial=%s\n", strings.ToUpper(c.SerialNumber.Text(16)))
		case "subject":
			fmt.Fprintf(&o.stdout, "subject=%s\n", c.Subject)
		case "issuer":
			fmt.Fprintf(&o.stdout, "issuer=%s\n", c.Issuer)
		case "startdate":
			fmt.Fprintf(&o.stdout, "notBefore=%s\n", stamp(c.NotBefore))
		case "enddate":
			fmt.Fprintf(&o.stdout, "notAfter=%s\n", stamp(c.NotAfter))
		case "dates":
			fmt.Fprintf(&o.stdout, "notBefore=%s\nnotAfter=%s\n", stamp(c.NotBefore), stamp(c.NotAfter))
		}
	}
}

// sign is openssl x509 -req: the request signed by the CA of -CA and
// -CAkey.
func (o *opensslRun) sign(in []byte) {
	req, err := pki.ParseRequest(in)
	if err != nil {
		o.failf("x509: unable to load X509 request: %v", err)
		return
	}
	if o.opts["CA"] == "" || o.opts["CAkey"] == "" {
		o.failf("x509: -req needs -CA and -CAkey to sign with (genplay does not simulate -signkey)")
		return
	}
	caPEM, keyPEM := o.read(o.opts["CA"], "certificate"), o.read(o.opts["CAkey"], "private key")
	if caPEM == nil || keyPEM == nil {
		return
	}
	caCert, err := pki.ParseCertificate(caPEM)
	if err != nil {
		o.failf("x509: Could not read CA certificate from %s: %v", o.opts["CA"], err)
		return
	}
	caKey, err := pki.ParseKey(keyPEM)
	if err != nil {
		o.failf("x509: Could not read CA private key from %s: %v", o.opts["CAkey"], err)
		return
	}
	ca, err := pki.AuthorityOf(caKey, caCert)
	if err != nil {
		o.failf("x509: %v", err)
		return
	}
	d, ok := o.days()
	if !ok {
		return
	}
	now := o.r.s.Now()
	fmt.Fprintf(&o.stderr, "Certificate request self-signature ok\nsubject=%s\n", req.Subject)
	o.output("out", ca.Issue(pki.Template{Subject: req.Subject, PublicKey: req.PublicKey, NotBefore: now, NotAfter: now.Add(d)}))
}
