package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunPointsAtTheLineThatBrokeTheStructure dedents lines of an example
// (a key, a list item, a key below a list) to one space: genplay run
// reports each at that line, not at the start of the block around it.
func TestRunPointsAtTheLineThatBrokeTheStructure(t *testing.T) {
	data, err := os.ReadFile("../../site/examples/default-deny-netpol.yaml")
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	find := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimLeft(l, " "), prefix) {
				return i + 1
			}
		}
		t.Fatalf("the example has no line %q", prefix)
		return 0
	}
	for _, key := range []string{"synchronize:", "- Egress", "kind: Namespace"} {
		line := find(key)
		t.Run(fmt.Sprintf("%s at line %d", key, line), func(t *testing.T) {
			broken := append([]string(nil), lines...)
			broken[line-1] = " " + strings.TrimLeft(broken[line-1], " ")
			file := filepath.Join(t.TempDir(), "broken.yaml")
			require.NoError(t, os.WriteFile(file, []byte(strings.Join(broken, "\n")), 0o644))
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, runCommand([]string{file}, nil, &stdout, &stderr))
			assert.Contains(t, stdout.String()+stderr.String(), fmt.Sprintf("%s:%d:2: yaml: did not find expected key", file, line))
		})
	}
}
