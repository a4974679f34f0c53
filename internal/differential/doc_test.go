//go:build !js

package differential

import "os"

func readDoc() ([]byte, error) { return os.ReadFile("../../docs/differential.md") }
