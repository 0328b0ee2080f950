package supervise

import (
	"context"
	"fmt"
	"net"
	"time"
)

// waitAccept tries a TCP connection to Addr every poll until one is accepted
// (closed at once, no request sent), the leader exits, the timeout passes or
// ctx ends; SpawnToAccept is then the time from spawn to the accepted connect's
// return. Its resolution is poll plus one refused connect (microseconds).
func (s *Server) waitAccept(ctx context.Context, timeout, poll time.Duration, spawn time.Time) error {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(poll)
	defer tick.Stop()
	d := net.Dialer{}
	last := "no answer yet"
	for {
		until := time.Now().Add(time.Second)
		if deadline.Before(until) {
			until = deadline
		}
		dctx, cancel := context.WithDeadline(ctx, until)
		c, err := d.DialContext(dctx, "tcp", s.Addr)
		cancel()
		if err == nil {
			s.SpawnToAccept = time.Since(spawn)
			c.Close()
			return nil
		}
		last = err.Error()
		select {
		case <-s.done:
			return fmt.Errorf("%w (%s)", errExited, exitText(s.waitErr))
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to accept: %w", s.Addr, ctx.Err())
		case <-tick.C:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not accepting after %s: %s: last: %s", timeout, s.Addr, last)
		}
	}
}
