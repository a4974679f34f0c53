package cluster

import "time"

// Epoch is the time every Clock starts at.
var Epoch = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

// Clock is a logical clock. It only moves when told to, so every run of a
// scenario sees the same timestamps. The zero Clock reads Epoch.
type Clock struct {
	offset time.Duration

	// stamp caches Stamp's text for stampAt: many events and objects share
	// one logical second.
	stamp   string
	stampAt time.Duration
}

// NewClock returns a clock that reads Epoch.
func NewClock() *Clock { return &Clock{} }

// Now returns the current logical time, in UTC.
func (c *Clock) Now() time.Time { return Epoch.Add(c.offset) }

// Stamp returns Now as RFC 3339 text (2024-01-01T00:00:00Z), the form of
// creationTimestamps and timeline times.
func (c *Clock) Stamp() string {
	if c.stamp == "" || c.stampAt != c.offset {
		c.stamp, c.stampAt = c.Now().Format(time.RFC3339), c.offset
	}
	return c.stamp
}

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
