// Package nesting measures how deeply a JMESPath expression nests brackets,
// so that callers can refuse an expression before a recursive-descent
// parser walks it: 10,000 nested parentheses overflow the stack of a
// js/wasm build and kill the page, which no recover() can catch.
package nesting
