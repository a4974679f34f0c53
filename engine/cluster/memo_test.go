package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestValidMemo(t *testing.T) {
	calls := 0
	check := func(s string) []string {
		calls++
		if s == "bad" {
			return []string{"bad value"}
		}
		return nil
	}
	m := &validMemo{}
	t.Run("an accepted string is checked once", func(t *testing.T) {
		assert.Empty(t, m.check("good", check))
		assert.Empty(t, m.check("good", check))
		assert.Equal(t, 1, calls)
	})
	t.Run("a rejected string is checked and reported every time", func(t *testing.T) {
		calls = 0
		assert.Equal(t, []string{"bad value"}, m.check("bad", check))
		assert.Equal(t, []string{"bad value"}, m.check("bad", check))
		assert.Equal(t, 2, calls)
	})
	t.Run("a full memo starts over", func(t *testing.T) {
		for i := range validMemoMax + 1 {
			m.check(string(rune(0x100+i)), check)
		}
		assert.LessOrEqual(t, len(m.ok), validMemoMax)
	})
}
