package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// Version is the build's version; the Makefile sets it with
// -ldflags "-X github.com/genplay/genplay/wasm/bridge.Version=...".
var Version = "dev"

// DefaultFile names the scenario in diagnostics when options give no file,
// the name chainsaw gives a test file.
const DefaultFile = "chainsaw-test.yaml"

// MaxInput caps the scenario text, in bytes.
const MaxInput = 1 << 20

// Families are the policy families the build simulates besides
// ClusterPolicy and Policy (engine.Options.Families). The wasm command sets
// it once, before the first run, from its build tag: nil in the core build,
// the CEL GeneratingPolicy family in the full build (wasm/families_*.go).
var Families []engine.Family

// Scripts is the interpreter of script and command operations
// (engine.Options.Scripts), set like Families: nil in the core build, which
// leaves the shell out, package shell's in the full build.
var Scripts engine.Scripts

// runEngine is engine.Run; tests replace it to inject failures.
var runEngine = engine.Run

// Options is what genplay.run accepts as its second argument, as JSON.
type Options struct {
	File     string    `json:"file,omitempty"`
	Override *Override `json:"override,omitempty"`
	// KyvernoVersion is the Kyverno release to simulate ("" the latest);
	// the timeline's "kyverno" names it.
	KyvernoVersion string `json:"kyvernoVersion,omitempty"`
	// CompareVersions runs the scenario under every simulated release and
	// answers their comparison (timeline.VersionComparison, format
	// genplay.versions/v1) instead of one timeline.
	CompareVersions bool `json:"compareVersions,omitempty"`
}

// Override mirrors engine.Override; null leaves the policy's value.
type Override struct {
	Synchronize                    *bool `json:"synchronize"`
	OrphanDownstreamOnPolicyDelete *bool `json:"orphanDownstreamOnPolicyDelete"`
}

// ParseOptions decodes the options JSON; "" means no options. Unknown fields
// are errors, so a misspelt option does not pass silently.
func ParseOptions(data string) (file string, opts engine.Options, err error) {
	o, err := decodeOptions(data)
	if err != nil {
		return "", opts, err
	}
	file, opts = o.engine()
	return file, opts, nil
}

// decodeOptions decodes the options JSON ("" is none), refusing unknown
// fields.
func decodeOptions(data string) (Options, error) {
	var o Options
	if data == "" {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, fmt.Errorf("options: %w", err)
	}
	if dec.More() {
		return o, errors.New("options: trailing data after the JSON object")
	}
	return o, nil
}

// engine is the run's file name and engine options.
func (o Options) engine() (file string, opts engine.Options) {
	file = DefaultFile
	if o.File != "" {
		file = o.File
	}
	opts.KyvernoVersion = o.KyvernoVersion
	if o.Override != nil {
		opts.Override = &engine.Override{
			Synchronize:                    o.Override.Synchronize,
			OrphanDownstreamOnPolicyDelete: o.Override.OrphanDownstreamOnPolicyDelete,
		}
	}
	return file, opts
}

// Run runs the scenario text with the options JSON and returns the result as
// JSON, the bytes `genplay run -o json` decodes to.
func Run(text, options string) []byte { return RunSince(text, options, "", "") }

// RunSince is Run for the page's loader, which holds earlier answers: token
// names this answer, and base one the loader holds. When the bridge
// remembers base, the answer leaves out the leading steps and the initial
// objects that are the same in base, and says so in "reuse" (see Reuse):
// a run after an edit at the end of the scenario sends only what changed.
// Empty token and base: Run.
func RunSince(text, options, token, base string) []byte {
	return RunYielding(context.Background(), text, options, token, base, nil)
}

// RunYielding is RunSince for a run on the page's own thread (the embed's
// fallback where no Worker can start): yield is called between bits of
// work (engine.Options.Yield), where it gives the page's event loop a turn,
// and cancelling ctx (the page's Stop, or its deadline) stops the run at
// the engine's next look at it. The bytes are RunSince's when neither
// happens.
func RunYielding(ctx context.Context, text, options, token, base string, yield func()) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = Internal(r)
		}
	}()
	if f := takeFault(); f != "" {
		crash(f)
	}
	o, err := decodeOptions(options)
	if err != nil {
		return Failure(err)
	}
	file, opts := o.engine()
	if len(text) > MaxInput {
		return Failure(fmt.Errorf("the scenario is %d bytes; the limit is %d", len(text), MaxInput))
	}
	opts.Families, opts.Scripts = Families, Scripts
	if ctx != context.Background() {
		opts.Context = ctx
	}
	opts.Yield = yield
	if o.CompareVersions {
		// A run that ends the comparison (input that cannot run, a limit)
		// is the answer: a timeline, as the HTTP API answers.
		c, stop, _ := compareVersions(file, []byte(text), opts)
		if stop != nil {
			return encodeSince(stop, "", "")
		}
		return encodeComparison(c)
	}
	return encodeSince(runEngine(file, []byte(text), opts), token, base)
}

// compareVersions is engine.CompareVersions; tests replace it.
var compareVersions = engine.CompareVersions

// encodeComparison is a comparison's JSON.
func encodeComparison(c *timeline.VersionComparison) []byte {
	out, err := json.Marshal(c)
	if err != nil {
		return Failure(fmt.Errorf("internal error: encode the comparison: %w", err))
	}
	return out
}

// Failure is the JSON of a Result that reports err as its one diagnostic.
func Failure(err error) []byte {
	return encode(&timeline.Result{
		Format:      timeline.FormatVersion,
		Initial:     []resource.Object{},
		Diagnostics: []timeline.Diagnostic{{Severity: "error", Message: err.Error()}},
	})
}

// Internal is the JSON of a Result that reports a recovered panic.
func Internal(recovered any) []byte {
	return Failure(fmt.Errorf("internal error: %v\n%s", recovered, debug.Stack()))
}

func encode(r *timeline.Result) []byte {
	out, err := json.Marshal(r)
	if err != nil {
		// A Result holds only JSON-shaped data; reaching this is a bug, and
		// the message must still be valid JSON.
		msg, _ := json.Marshal("internal error: encode result: " + err.Error())
		return []byte(`{"format":"` + timeline.FormatVersion + `","test":"","initial":[],"steps":null,"passed":false,` +
			`"diagnostics":[{"file":"","line":0,"column":0,"severity":"error","message":` + string(msg) + `}]}`)
	}
	return out
}
