//go:build js && wasm && cel && tools

package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hack-pad/safejs"

	"github.com/genplay/genplay/wasm/authoring"
	"github.com/genplay/genplay/wasm/bridge"
)

// build names this build for the loader (globalThis.__genplayWasm.build):
// the tools build (-tags cel,tools), the full build and the authoring
// tools. The loader fetches it when a tool is called, and it then serves
// runs too.
const build = "tools"

// tools are the authoring tools of the engine (genplay.tool, registered
// below); only the tools build has them, so the loader sends every tool
// call here. doc.go describes each.
var tools = map[string]bridge.Tool{
	"migrate": authoring.Migrate, // issue 13: Convert to GeneratingPolicy
	"export":  authoring.Export,  // issue 15: Export as test
	"wrap":    authoring.Wrap,    // issue 15: a bare policy wrapped into a scenario
}

// registerTools publishes tool(name, text, optionsJSON) and tools (the
// names, comma-separated) on the engine's API object; see doc.go.
func registerTools(api safejs.Value) error {
	bridge.Tools = tools
	tool, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = string(bridge.ToolFailure("", fmt.Errorf("internal error: %v", r)))
			}
		}()
		name, text, options, err := toolArguments(args)
		if err != nil {
			return string(bridge.ToolFailure(name, err))
		}
		return string(bridge.CallTool(name, text, options))
	})
	if err != nil {
		return fmt.Errorf("wrap tool: %w", err)
	}
	if err := api.Set("tool", tool.Value()); err != nil {
		return fmt.Errorf("set tool: %w", err)
	}
	if err := api.Set("tools", strings.Join(bridge.ToolNames(), ",")); err != nil {
		return fmt.Errorf("set tools: %w", err)
	}
	return nil
}

// toolArguments checks tool(name: string, text: string, optionsJSON?: string).
func toolArguments(args []safejs.Value) (name, text, options string, err error) {
	if len(args) < 1 || args[0].Type() != safejs.TypeString {
		return "", "", "", errors.New("tool: the first argument must be the tool's name (a string)")
	}
	if name, err = args[0].String(); err != nil {
		return "", "", "", err
	}
	if text, options, err = arguments(args[1:]); err != nil {
		return "", "", "", err
	}
	return name, text, options, nil
}
