// Command scalegen prints a scale scenario: go run ./internal/scalegen/cmd N S.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/genplay/genplay/internal/scalegen"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: scalegen NAMESPACES DELETES")
		os.Exit(2)
	}
	n, err1 := strconv.Atoi(os.Args[1])
	s, err2 := strconv.Atoi(os.Args[2])
	if err1 != nil || err2 != nil || n < 1 || s < 0 {
		fmt.Fprintln(os.Stderr, "scalegen: NAMESPACES must be a positive number and DELETES a number")
		os.Exit(2)
	}
	_, _ = os.Stdout.Write(scalegen.Scenario(n, s))
}
