package cluster

import "time"

// Epoch is the time every Clock starts at.
var Epoch = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

// Clock is a logical clock. It only moves when told to, so every run of a
// scenario sees the same timestamps. The zero Clock reads Epoch.
type Clock struct {
	offset time.Duration
}

// NewClock returns a clock that reads Epoch.
func NewClock() *Clock { return &Clock{} }

// Now returns the current logical time, in UTC.
func (c *Clock) Now() time.Time { return Epoch.Add(c.offset) }

// Advance moves the clock forward by d; a negative d is ignored, so time
// never runs backwards.
func (c *Clock) Advance(d time.Duration) {
	if d > 0 {
		c.offset += d
	}
}

// Tick advances the clock by one second. The Store ticks once per write, so
// objects written one after the other get distinct creationTimestamps.
func (c *Clock) Tick() { c.Advance(time.Second) }
