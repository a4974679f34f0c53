package bridge

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
)

// A Tool is an authoring action of the engine besides run (converting a
// policy, wrapping a bare policy into a scenario, exporting a test, ...):
// it takes text (what the user typed) and its options as JSON ("" for none)
// and returns a JSON-shaped value. A Tool's logic lives in an engine
// package, with the CLI command that shares it; the bridge only adapts.
type Tool func(text string, options []byte) (any, error)

// Tools are the tools this build offers, by name. The wasm command sets it
// once from its build tags (wasm/build_tools.go), like Families: only the
// tools build has them, and the loader sends every tool call there.
var Tools map[string]Tool

// ToolNames lists Tools, sorted: the loader reads it to route a call.
func ToolNames() []string {
	names := make([]string, 0, len(Tools))
	for name := range Tools {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// ToolAnswer is the JSON genplay.tool resolves to: the tool's result, or an
// error that says why there is none. It never holds both.
type ToolAnswer struct {
	Tool   string `json:"tool"`
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// CallTool runs the named tool and returns its ToolAnswer as JSON. It never
// panics: an unknown tool, oversized input, a tool's error and a recovered
// panic are answers with an error.
func CallTool(name, text, options string) (out []byte) {
	answer := ToolAnswer{Tool: name}
	defer func() {
		if r := recover(); r != nil {
			answer.Result = nil
			answer.Error = fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())
		}
		out = encodeAnswer(answer)
	}()
	tool, ok := Tools[name]
	switch {
	case !ok:
		answer.Error = fmt.Sprintf("this build of genplay has no tool %q (it has: %v)", name, ToolNames())
	case len(text) > MaxInput:
		answer.Error = fmt.Sprintf("the text is %d bytes; the limit is %d", len(text), MaxInput)
	default:
		result, err := tool(text, []byte(options))
		if err != nil {
			answer.Error = err.Error()
		} else {
			answer.Result = result
		}
	}
	return nil
}

// ToolFailure is the JSON of an answer that reports err.
func ToolFailure(name string, err error) []byte {
	return encodeAnswer(ToolAnswer{Tool: name, Error: err.Error()})
}

func encodeAnswer(a ToolAnswer) []byte {
	out, err := json.Marshal(a)
	if err != nil {
		out, _ = json.Marshal(ToolAnswer{Tool: a.Tool, Error: "internal error: encode the answer: " + err.Error()})
	}
	return out
}
