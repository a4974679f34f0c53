package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// genplay serve runs every scenario in a process of its own (`genplay
// __run`, reading the request on stdin and writing the timeline on
// stdout), so that no request can take the server down, whatever it
// holds: the engine bounds work and memory before they are spent (the
// first line), and what still escapes it (a Go runtime "fatal error: out
// of memory", a stack overflow, a bug that kills the process) kills only
// that run's process, which is also killed the moment its client goes
// away or its time is up. docs/hardening.md says what is promised.

// childCommand is the hidden command a run's process is started with.
const childCommand = "__run"

// childMemory bounds a run's process: its Go heap is kept under
// childHeap (debug.SetMemoryLimit: the collector works harder as it
// nears it), and its address space under childAddressSpace (setrlimit on
// unix: an allocation past it is the runtime's fatal out-of-memory error,
// in that process only). The Go runtime needs about 0.6 GB of address
// space of its own.
var (
	childHeap         = int64(1 << 30)
	childAddressSpace = int64(3 << 30)
)

// maxChildOutput bounds what the parent reads of a run's answer: the
// engine keeps a timeline within Limits.TimelineBytes plus one short step.
const maxChildOutput = 2 * (16 << 20)

// childRequest is what the parent sends a run's process.
type childRequest struct {
	File     string           `json:"file"`
	Scenario []byte           `json:"scenario"` // the bytes as sent (not a JSON string: invalid UTF-8 stays invalid)
	Override *engine.Override `json:"override,omitempty"`
	// KyvernoVersion is the release to simulate ("" the latest).
	KyvernoVersion string `json:"kyvernoVersion,omitempty"`
}

// isolated runs scenarios in processes of their own: api.Options.Run.
type isolated struct {
	argv []string // the command: genplay's own binary and __run
	env  []string // the process's environment (nil: the parent's)
}

func newIsolated() (isolated, error) {
	exe, err := os.Executable()
	if err != nil {
		return isolated{}, fmt.Errorf("find genplay's own binary to run scenarios in: %w", err)
	}
	return isolated{argv: []string{exe, childCommand}}, nil
}

// run runs one scenario in a new process and returns its result. A
// process that dies of a resource limit answers a result that says so
// (an input error: 422 from the API); one that dies otherwise, an
// internal error (500, logged).
func (iso isolated) run(file string, data []byte, opts engine.Options) *timeline.Result {
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	req, err := json.Marshal(childRequest{File: file, Scenario: data, Override: opts.Override, KyvernoVersion: opts.KyvernoVersion})
	if err != nil {
		panic(err) // strings and booleans only
	}
	cmd := exec.CommandContext(ctx, iso.argv[0], iso.argv[1:]...)
	cmd.Env = iso.env
	cmd.Stdin = bytes.NewReader(req)
	stdout := &cappedBuffer{limit: maxChildOutput}
	stderr := &cappedBuffer{limit: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		// Killed because its client went away or its time was up: the API
		// answers from the context, not from this result.
		return stoppedResult(file, fmt.Sprintf("%s: the run was stopped: %v", engine.LimitPrefix, context.Cause(ctx)))
	}
	if err == nil && !stdout.over {
		var res timeline.Result
		if err := json.Unmarshal(stdout.Bytes(), &res); err == nil {
			return &res
		}
	}
	why := stderr.String()
	switch {
	case strings.Contains(why, "out of memory"):
		return stoppedResult(file, fmt.Sprintf("%s: the run needed more than the %d MiB of memory genplay gives one run; its process was stopped", engine.LimitPrefix, childHeap>>20))
	case strings.Contains(why, "stack exceeds"):
		return stoppedResult(file, fmt.Sprintf("%s: the run needed a deeper stack than genplay gives one run; its process was stopped", engine.LimitPrefix))
	case stdout.over:
		why = fmt.Sprintf("the answer was larger than %d bytes", maxChildOutput)
	}
	panic(fmt.Sprintf("the run's process ended without an answer (%v): %s", err, lastLines(why, 20)))
}

// stoppedResult is the answer of a run its process could not finish.
func stoppedResult(file, msg string) *timeline.Result {
	return &timeline.Result{Format: timeline.FormatVersion, Steps: []timeline.Step{}, Diagnostics: []timeline.Diagnostic{{
		File: file, Line: 1, Column: 1, Severity: "error", Message: msg,
	}}}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// cappedBuffer keeps at most limit bytes and remembers it was cut.
type cappedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil // keep the process writing (and ending); the answer is refused
	}
	return b.Buffer.Write(p)
}

// childRunCommand is `genplay __run`: one scenario from stdin, its
// timeline on stdout. The process bounds its own memory first.
func childRunCommand(stdin io.Reader, stdout, stderr io.Writer) int {
	limitAddressSpace(childAddressSpace)
	debug.SetMemoryLimit(childHeap)
	data, err := io.ReadAll(io.LimitReader(stdin, api.DefaultMaxBodyBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "genplay %s: read the request: %v\n", childCommand, err)
		return 2
	}
	var req childRequest
	if err := json.Unmarshal(data, &req); err != nil {
		fmt.Fprintf(stderr, "genplay %s: read the request: %v\n", childCommand, err)
		return 2
	}
	res := engine.Run(req.File, req.Scenario, engine.Options{Override: req.Override, KyvernoVersion: req.KyvernoVersion, Families: families, Scripts: scripts})
	out, err := timeline.Marshal(res)
	if err != nil {
		fmt.Fprintf(stderr, "genplay %s: %v\n", childCommand, err)
		return 3
	}
	if _, err := stdout.Write(out); err != nil {
		if errors.Is(err, os.ErrClosed) {
			return 0
		}
		return 3
	}
	return 0
}
