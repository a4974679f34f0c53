package cluster

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUIDStringMatchesTheFormattedUID(t *testing.T) {
	for _, seq := range []uint64{0, 1, 9, 10, 15, 16, 255, 4096, 1<<48 - 1, 1 << 48, 1<<64 - 1} {
		t.Run(fmt.Sprint(seq), func(t *testing.T) {
			assert.Equal(t, fmt.Sprintf("00000000-0000-4000-8000-%012x", seq), uidString(seq))
		})
	}
}
