//go:build !(js && wasm)

package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/itchyny/gojq"

	"github.com/genplay/genplay/engine/internal/budget"
)

// jqAvailable reports whether scripts may pipe into jq. The native build
// uses gojq; the wasm build leaves it out (it would add about a quarter to
// the download) and skips such scripts.
const jqAvailable = true

// runJQ is jq(1) over text: -e, -r, -j, -c, -n, -S and -M are honoured.
// Exit codes follow jq: 5 for a runtime error, 3 for a compile error, and
// with -e 1 when the last output is false or null, 4 when there is none.
func runJQ(st Stage, text string, b *budget.Budget) (stdout, stderr string, code int, err error) {
	q, err := gojq.Parse(st.Expr)
	if err != nil {
		return "", fmt.Sprintf("jq: error: %v\njq: 1 compile error\n", err), 3, nil
	}
	code0, err := gojq.Compile(q)
	if err != nil {
		return "", fmt.Sprintf("jq: error: %v\njq: 1 compile error\n", err), 3, nil
	}
	var inputs []any
	if st.Options["n"] {
		inputs = []any{nil}
	} else {
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		for {
			var v any
			if err := dec.Decode(&v); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return "", fmt.Sprintf("jq: error (at <stdin>:0): %v\n", err), 2, nil
			}
			inputs = append(inputs, normalizeNumbers(v))
		}
	}
	var out bytes.Buffer
	var lastOut any
	outputs := 0
	for _, in := range inputs {
		iter := code0.RunWithContext(jqSteps(b), in)
		for {
			v, ok := iter.Next()
			if !ok {
				break
			}
			if e, isErr := v.(error); isErr {
				var halt *gojq.HaltError
				if errors.As(e, &halt) && halt.Value() == nil {
					break
				}
				return out.String(), fmt.Sprintf("jq: error (at <stdin>:0): %v\n", e), 5, nil
			}
			if out.Len() > jqMaxOutput {
				return out.String()[:jqMaxOutput], fmt.Sprintf("jq: error: the output is larger than %d bytes, the most genplay keeps\n", jqMaxOutput), 5, nil
			}
			outputs++
			lastOut = v
			if s, isStr := v.(string); isStr && (st.Options["r"] || st.Options["j"]) {
				out.WriteString(s)
			} else {
				b, err := marshalJQ(v, st.Options["c"] || st.Options["j"])
				if err != nil {
					return out.String(), fmt.Sprintf("jq: error: %v\n", err), 5, nil
				}
				out.Write(b)
			}
			if !st.Options["j"] {
				out.WriteByte('\n')
			}
		}
	}
	if st.Options["e"] {
		switch {
		case outputs == 0:
			return out.String(), "", 4, nil
		case lastOut == nil || lastOut == false:
			return out.String(), "", 1, nil
		}
	}
	return out.String(), "", 0, nil
}

// normalizeNumbers turns json.Number into int or float64, as gojq expects.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	}
	return v
}

func marshalJQ(v any, compact bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if !compact {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// jqMaxOutput caps what one jq stage may print.
const jqMaxOutput = 1 << 20

// jqStepCost is what one step of gojq's machine charges the work budget:
// steps are cheap, but many allocate, so the budget bounds memory as well.
const jqStepCost = 64

// jqSteps is the context gojq runs under: gojq asks it for Done once per
// machine step, so it charges the run's work budget per step, and once the
// budget is spent Done is closed and Err says why. Steps, not time: a jq
// program that runs away (range(1e12), def f: f; f) stops at the same step
// on every machine.
func jqSteps(b *budget.Budget) context.Context {
	return &jqContext{Context: context.Background(), b: b, done: make(chan struct{})}
}

type jqContext struct {
	context.Context
	b      *budget.Budget
	done   chan struct{}
	closed bool
	steps  int64
}

func (c *jqContext) Done() <-chan struct{} {
	if c.closed {
		return c.done
	}
	if c.steps++; c.steps == 64 { // charge in batches: Done runs per step
		c.steps = 0
		if c.b.Charge(64*jqStepCost, "jq") != nil {
			c.closed = true
			close(c.done)
		}
	}
	return c.done
}

func (c *jqContext) Err() error {
	if c.closed {
		return c.b.Err()
	}
	return nil
}
