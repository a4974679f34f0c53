//go:build js && wasm

package main

import (
	"errors"
	"fmt"

	"github.com/hack-pad/safejs"

	"github.com/genplay/genplay/wasm/bridge"
)

func main() {
	bridge.Families, bridge.Scripts = families, scripts
	if err := register(); err != nil {
		fmt.Println("genplay: cannot register the engine:", err)
		return
	}
	select {} // keep the functions alive
}

// register publishes globalThis.__genplayWasm and tells the loader.
func register() error {
	run, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = string(bridge.Internal(r))
			}
		}()
		text, options, err := arguments(args)
		if err != nil {
			return string(bridge.Failure(err))
		}
		token, base := optionalString(args, 2), optionalString(args, 3)
		return string(bridge.RunSince(text, options, token, base))
	})
	if err != nil {
		return fmt.Errorf("wrap run: %w", err)
	}
	runAsync, stopAsync, err := asyncRun()
	if err != nil {
		return err
	}
	inject, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) != 1 || args[0].Type() != safejs.TypeString {
			return "injectFault: the argument must be a fault name (a string)"
		}
		name, err := args[0].String()
		if err == nil {
			err = bridge.InjectFault(name)
		}
		if err != nil {
			return err.Error()
		}
		return ""
	})
	if err != nil {
		return fmt.Errorf("wrap injectFault: %w", err)
	}
	object, err := safejs.Global().Get("Object")
	if err != nil {
		return fmt.Errorf("get Object: %w", err)
	}
	api, err := object.New()
	if err != nil {
		return fmt.Errorf("new object: %w", err)
	}
	if err := api.Set("version", bridge.Version); err != nil {
		return fmt.Errorf("set version: %w", err)
	}
	if err := api.Set("build", build); err != nil {
		return fmt.Errorf("set build: %w", err)
	}
	if err := api.Set("run", run.Value()); err != nil {
		return fmt.Errorf("set run: %w", err)
	}
	if err := api.Set("runAsync", runAsync.Value()); err != nil {
		return fmt.Errorf("set runAsync: %w", err)
	}
	if err := api.Set("stop", stopAsync.Value()); err != nil {
		return fmt.Errorf("set stop: %w", err)
	}
	if err := registerTools(api); err != nil {
		return err
	}
	if err := api.Set("injectFault", inject.Value()); err != nil {
		return fmt.Errorf("set injectFault: %w", err)
	}
	if err := safejs.Global().Set("__genplayWasm", api); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if ready, err := safejs.Global().Get("__genplayOnReady"); err == nil && ready.Type() == safejs.TypeFunction {
		if _, err := ready.Invoke(); err != nil {
			return fmt.Errorf("call __genplayOnReady: %w", err)
		}
	}
	return nil
}

// arguments checks run(text: string, optionsJSON?: string).
func arguments(args []safejs.Value) (text, options string, err error) {
	if len(args) < 1 || args[0].Type() != safejs.TypeString {
		return "", "", errors.New("run: the first argument must be the scenario text (a string)")
	}
	if text, err = args[0].String(); err != nil {
		return "", "", fmt.Errorf("run: read text: %w", err)
	}
	if len(args) < 2 || args[1].IsUndefined() || args[1].IsNull() {
		return text, "", nil
	}
	if args[1].Type() != safejs.TypeString {
		return "", "", errors.New("run: the second argument must be the options as JSON (a string)")
	}
	if options, err = args[1].String(); err != nil {
		return "", "", fmt.Errorf("run: read options: %w", err)
	}
	return text, options, nil
}

// optionalString is args[i] when it is a string, else "": run's private
// token and base (wasm/doc.go).
func optionalString(args []safejs.Value, i int) string {
	if len(args) <= i || args[i].Type() != safejs.TypeString {
		return ""
	}
	s, err := args[i].String()
	if err != nil {
		return ""
	}
	return s
}
