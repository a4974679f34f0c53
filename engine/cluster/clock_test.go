package cluster

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestClock(t *testing.T) {
	t.Run("a new clock reads the first second of 2024 in UTC", func(t *testing.T) {
		assert.Equal(t, "2024-01-01T00:00:00Z", NewClock().Now().Format(time.RFC3339))
	})
	t.Run("tick advances one second and advance any positive duration", func(t *testing.T) {
		c := NewClock()
		c.Tick()
		c.Advance(90 * time.Minute)
		assert.Equal(t, "2024-01-01T01:30:01Z", c.Now().Format(time.RFC3339))
	})
	t.Run("time never runs backwards", func(t *testing.T) {
		c := NewClock()
		c.Advance(-time.Hour)
		assert.Equal(t, Epoch, c.Now())
	})
	t.Run("the zero clock is usable", func(t *testing.T) {
		var c Clock
		assert.Equal(t, Epoch, c.Now())
	})
}

func TestStampIsNowInRFC3339(t *testing.T) {
	c := NewClock()
	for _, step := range []time.Duration{0, time.Second, 0, 90 * time.Minute, 400 * 24 * time.Hour} {
		c.Advance(step)
		if got, want := c.Stamp(), c.Now().UTC().Format(time.RFC3339); got != want {
			t.Fatalf("after advancing %v: Stamp() = %q, want %q", step, got, want)
		}
	}
}
