// Package hostile is the table of hostile inputs genplay must survive:
// alias bombs, deep nesting, huge scalars, binary garbage, non-UTF-8,
// duplicate keys, a Test with 100,000 steps, runaway expressions. The
// engine's tests run it through engine.Run (natively and as js/wasm) and
// the api package's tests through the HTTP handler; each input names what
// the answer must say.
package hostile
