// Command fieldrefgen writes site/src/fieldref.json, the field reference
// the playground's editor completes and documents from: engine/fieldref's
// description of the schemas the engine checks against. The Makefile's site
// target runs it; engine/fieldref's test fails when the committed file is
// stale.
//
//	go run ./site/fieldrefgen [-o site/src/fieldref.json]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/genplay/genplay/engine/fieldref"
)

func main() {
	out := flag.String("o", "site/src/fieldref.json", "the file to write")
	flag.Parse()
	data := fieldref.JSON()
	if old, _ := os.ReadFile(*out); bytes.Equal(old, data) {
		return // unchanged: the file keeps its time, and make its targets
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "fieldrefgen: %v\n", err)
		os.Exit(1)
	}
}
