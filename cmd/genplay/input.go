package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/genplay/genplay/engine"
)

// maxFileBytes bounds every file genplay reads: a scenario, a test file, a
// file a script names. engine.MaxInputBytes is the scenario limit.
const maxFileBytes = engine.MaxInputBytes

// readInput reads a file the user named: only a regular file (a symlink to
// one is fine), and at most maxFileBytes. A device (/dev/zero), a FIFO (it
// would block), a socket or a directory is refused before it is opened.
func readInput(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(info); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(path, f)
}

// regular refuses what is not a regular file, saying what it is.
func regular(info fs.FileInfo) error {
	if info.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch m := info.Mode(); {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s, not a regular file: genplay reads only regular files", what)
}

// readBounded reads r to its end, refusing more than maxFileBytes.
func readBounded(path string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s: the file is larger than %d bytes, the most genplay reads", path, maxFileBytes)
	}
	return data, nil
}

// boundedFS is an fs.FS whose files are regular and at most maxFileBytes
// long: the fs scenario loading and scripts read from (genplay test, and
// kubectl apply -f FILE in a script).
type boundedFS struct{ fsys fs.FS }

func (b boundedFS) Open(name string) (fs.File, error) {
	info, err := fs.Stat(b.fsys, name) // before Open: opening a FIFO blocks
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		if err := regular(info); err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
	f, err := b.fsys.Open(name)
	if err != nil || info.IsDir() {
		return f, err
	}
	return &boundedFile{File: f, name: name, left: maxFileBytes}, nil
}

type boundedFile struct {
	fs.File
	name string
	left int64
}

func (f *boundedFile) Read(p []byte) (int, error) {
	if f.left < 0 {
		return 0, fmt.Errorf("%s: the file is larger than %d bytes, the most genplay reads", f.name, maxFileBytes)
	}
	if int64(len(p)) > f.left+1 {
		p = p[:f.left+1]
	}
	n, err := f.File.Read(p)
	f.left -= int64(n)
	if f.left < 0 {
		return n, fmt.Errorf("%s: the file is larger than %d bytes, the most genplay reads", f.name, maxFileBytes)
	}
	return n, err
}

// Safety nets on top of the engine's deterministic work budget: a run is
// cancelled (engine.Options.Context) when it has taken longer than
// runTimeout, or when the Go heap passes memoryLimit, so that running out
// of memory ends with genplay's own message and exit status 3, never with
// the Go runtime's fatal "out of memory", whose exit status 2 would read
// as "bad input". debug.SetMemoryLimit makes the collector work harder as
// the heap nears the same limit.
var (
	runTimeout  = 2 * time.Minute
	memoryLimit = int64(4 << 30)
)

// errOutOfMemory is the cause of a run the memory watchdog stopped.
var errOutOfMemory = errors.New("out of memory")

// guard returns the context a run takes and a function to call after it.
func guard() (context.Context, func()) {
	debug.SetMemoryLimit(memoryLimit)
	ctx, cancelTimeout := context.WithTimeoutCause(context.Background(), runTimeout,
		fmt.Errorf("the run took longer than %s", runTimeout))
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(sample)
				if v := sample[0].Value; v.Kind() == metrics.KindUint64 && int64(v.Uint64()) > memoryLimit {
					cancel(fmt.Errorf("%w: the run's heap passed %d MiB", errOutOfMemory, memoryLimit>>20))
					return
				}
			}
		}
	}()
	return ctx, func() { close(done); cancel(nil); cancelTimeout() }
}

// stoppedRun reports a run a safety net stopped, on stderr, and whether it
// was one.
func stoppedRun(ctx context.Context, stderr io.Writer, command string) bool {
	if ctx.Err() == nil {
		return false
	}
	fmt.Fprintf(stderr, "genplay %s: stopped: %v (not a verdict on your input; it is unchanged)\n", command, context.Cause(ctx))
	return true
}

// userInput is a file the user gave a command, as read ("<stdin>" for
// standard input).
type userInput struct {
	file string
	data []byte
}

// guarded is the part of a command that works on the user's input under
// genplay's safety nets. ctx is what engine runs take: guard cancels it past
// runTimeout or memoryLimit.
type guarded struct {
	ctx     context.Context
	command string
	inputs  []userInput
	stderr  io.Writer
}

// withInput runs body, a command's work on inputs, under the safety nets:
// a panic is genplay's internal error, and a run stopped by time or memory
// is no verdict on the input; both exit 3 and say where the input is
// (keepInput), so nothing the user typed is lost.
func withInput(stderr io.Writer, command string, inputs []userInput, body func(g *guarded) int) (code int) {
	g := &guarded{command: command, inputs: inputs, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			code = g.internalError(fmt.Sprintf(": %v", r))
		}
	}()
	ctx, stop := guard()
	defer stop()
	g.ctx = ctx
	return body(g)
}

// stopped reports whether a safety net stopped the run, and then says so
// and where the input is: the command exits 3.
func (g *guarded) stopped() bool {
	if !stoppedRun(g.ctx, g.stderr, g.command) {
		return false
	}
	g.keep()
	return true
}

// internalError reports genplay's internal error (detail follows "please
// report it") and where the input is, and returns the exit status, 3.
func (g *guarded) internalError(detail string) int {
	fmt.Fprintf(g.stderr, "genplay: internal error (please report it)%s\n", detail)
	g.keep()
	return 3
}

func (g *guarded) keep() {
	for _, in := range g.inputs {
		keepInput(g.stderr, in.file, in.data)
	}
}
