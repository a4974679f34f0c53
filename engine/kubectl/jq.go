//go:build !(js && wasm)

package kubectl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/itchyny/gojq"

	"github.com/genplay/genplay/engine/scenario"
)

// jqAvailable reports whether scripts may pipe into jq. The native build
// uses gojq; the wasm build leaves it out (it would add about a quarter to
// the download) and skips such scripts.
const jqAvailable = true

// runJQ is jq(1) over text: -e, -r, -j, -c, -n, -S and -M are honoured.
// Exit codes follow jq: 5 for a runtime error, 3 for a compile error, and
// with -e 1 when the last output is false or null, 4 when there is none.
func runJQ(st scenario.Stage, text string) (stdout, stderr string, code int, err error) {
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
		iter := code0.Run(in)
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
