package runtime

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Admission selects the order in which renders waiting for an isolate get
// one (frameworks/engine/README.md, Short routes first).
type Admission string

const (
	// AdmissionCost lets renders of short routes (expected render time at
	// most Config.ShortRender) take the next free isolate before renders
	// of long ones; each class waits in arrival order. The default.
	AdmissionCost Admission = "cost"
	// AdmissionFIFO hands isolates out in arrival order, whatever the
	// route: the pool before short routes went first.
	AdmissionFIFO Admission = "fifo"
)

// DefaultShortRender is Config.ShortRender when 0: 1 ms. The six TFB
// routes render in 5 to 500 µs and the 1,000-row page in about 1.3 ms
// (README, What each step bought), so only pages count as long.
const DefaultShortRender = time.Millisecond

// minCost is the least expected cost a render is charged: a route not yet
// rendered (an estimate of 0) still spends a waiting long render's credit.
const minCost = time.Microsecond

// costEstimate is a route's expected render time: an exponentially
// weighted moving average of its wall-clock render times in ns, each new
// render weighing 1/8 (0 until the first render ends).
type costEstimate struct{ ns atomic.Int64 }

// observe adds one render's duration to the average.
func (c *costEstimate) observe(d time.Duration) {
	for {
		old := c.ns.Load()
		next := int64(d)
		if old != 0 {
			next = old + (int64(d)-old)/8
		}
		if next <= 0 {
			next = 1 // 0 means "no render yet"
		}
		if c.ns.CompareAndSwap(old, next) {
			return
		}
	}
}

// expected returns the route's expected render time, 0 before its first
// render.
func (c *costEstimate) expected() time.Duration { return time.Duration(c.ns.Load()) }

// admission hands free isolates (T: *slot in the pool, ints in tests) to
// waiting renders. With AdmissionCost a release goes to the oldest waiting
// short render unless that would overdraw the credit of the oldest long
// one: the shorts admitted ahead of a long while it heads the long queue
// cost together at most its own expected render time, then it goes next.
// So a short waits for the renders under way when it came and for no
// queued long one unless shorts alone kept that long waiting for its own
// cost, and a long is passed by at most its own cost of short renders.
type admission[T any] struct {
	policy Admission

	mu    sync.Mutex
	free  []T
	short []*waiter[T] // AdmissionCost: short renders in arrival order
	long  []*waiter[T] // long renders in arrival order; every render under AdmissionFIFO
}

// waiter is one render waiting for an isolate.
type waiter[T any] struct {
	got    chan T        // receives the isolate; buffered 1
	short  bool          // in admission.short
	cost   time.Duration // expected render time, at least minCost
	credit time.Duration // long, at the head: the cost of shorts that may still pass it
}

// newAdmission returns an admission of policy over the isolates in free.
func newAdmission[T any](policy Admission, free []T) *admission[T] {
	return &admission[T]{policy: policy, free: free}
}

// tryAcquire returns a free isolate if there is one.
func (a *admission[T]) tryAcquire() (t T, ok bool) {
	a.mu.Lock()
	if n := len(a.free); n > 0 {
		t, ok = a.free[n-1], true
		a.free = a.free[:n-1]
	}
	a.mu.Unlock()
	return t, ok
}

// acquire returns a free isolate for a render whose route is expected to
// take cost (short: at most the pool's ShortRender), waiting for a release
// when none is free. It returns ErrBusy when wait (from after) fires
// first, ctx.Err() when ctx ends first; an isolate handed over at that
// moment is taken anyway.
func (a *admission[T]) acquire(ctx context.Context, short bool, cost time.Duration, wait <-chan time.Time) (T, error) {
	a.mu.Lock()
	if n := len(a.free); n > 0 {
		t := a.free[n-1]
		a.free = a.free[:n-1]
		a.mu.Unlock()
		return t, nil
	}
	w := &waiter[T]{got: make(chan T, 1), short: short && a.policy == AdmissionCost, cost: max(cost, minCost)}
	if w.short {
		a.short = append(a.short, w)
	} else {
		if len(a.long) == 0 {
			w.credit = w.cost
		}
		a.long = append(a.long, w)
	}
	a.mu.Unlock()
	var err error
	select {
	case t := <-w.got:
		return t, nil
	case <-wait:
		err = ErrBusy
	case <-ctx.Done():
		err = ctx.Err()
	}
	a.mu.Lock()
	queued := a.remove(w)
	a.mu.Unlock()
	if !queued { // a release chose w after the wait ended
		return <-w.got, nil
	}
	var zero T
	return zero, err
}

// release gives t to the next waiting render (next) or back to the free
// isolates.
func (a *admission[T]) release(t T) {
	a.mu.Lock()
	if w := a.next(); w != nil {
		w.got <- t
	} else {
		a.free = append(a.free, t)
	}
	a.mu.Unlock()
}

// next dequeues the render that gets the next released isolate, nil when
// none waits. Called with mu held.
func (a *admission[T]) next() *waiter[T] {
	if len(a.short) > 0 && (len(a.long) == 0 || a.long[0].credit >= a.short[0].cost) {
		w := a.short[0]
		a.short = a.short[1:]
		if len(a.long) > 0 {
			a.long[0].credit -= w.cost
		}
		return w
	}
	if len(a.long) > 0 {
		w := a.long[0]
		a.long = a.long[1:]
		if len(a.long) > 0 {
			a.long[0].credit = a.long[0].cost
		}
		return w
	}
	return nil
}

// remove takes w out of its queue and reports whether it was there. A
// long head's successor inherits a fresh credit. Called with mu held.
func (a *admission[T]) remove(w *waiter[T]) bool {
	q := &a.long
	if w.short {
		q = &a.short
	}
	for i, x := range *q {
		if x == w {
			*q = append((*q)[:i], (*q)[i+1:]...)
			if !w.short && i == 0 && len(a.long) > 0 {
				a.long[0].credit = a.long[0].cost
			}
			return true
		}
	}
	return false
}

// waiting returns the numbers of short and long renders waiting (tests).
func (a *admission[T]) waiting() (short, long int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.short), len(a.long)
}

// parseAdmission checks a Config.Admission value; "" is AdmissionCost.
func parseAdmission(v Admission) (Admission, error) {
	switch v {
	case "":
		return AdmissionCost, nil
	case AdmissionCost, AdmissionFIFO:
		return v, nil
	}
	return "", fmt.Errorf("runtime: admission %q, want %q or %q", v, AdmissionCost, AdmissionFIFO)
}
