package runtime

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Admission selects the order in which renders waiting for an isolate get
// one (frameworks/engine/README.md, Cheap renders first).
type Admission string

const (
	// AdmissionCost hands a released isolate to the waiting render of least
	// expected cost, within a credit of the oldest waiting render (see
	// admission). The default.
	AdmissionCost Admission = "cost"
	// AdmissionArrival hands isolates out in arrival order, whatever the
	// route: the pool before cheap renders went first.
	AdmissionArrival Admission = "arrival"
)

// minCost is the least expected cost a waiting render has: a route not yet
// rendered (an estimate of 0) counts as this cheap and still spends the
// oldest waiter's credit.
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
// waiting renders; a free isolate is taken at once. A render that waits
// joins the FIFO queue of its class (the pool: its route) with its cost:
// the route's expected render time when it queued, at least minCost.
// Under AdmissionCost a release goes to C, the queue head of least cost
// (ties: the earlier arrival), unless O, the oldest waiter (any cost),
// has too little credit left: O starts with a credit of its own cost when
// it becomes the oldest, each C admitted ahead of it spends C's cost, and
// a C costing more than the credit left makes O go instead. So a render
// waits for the renders under way, its route's earlier renders, cheaper
// ones (or as dear and earlier), and a dearer one only when that is the
// oldest with its credit spent (R1). Later renders admitted before a
// render R cost in all at most R's own cost plus those of the renders
// waiting when R came; the oldest's share, its own cost (R2).
// AdmissionArrival admits in arrival order. No clock is read; O(classes) per
// release (ISSUE-38-DESIGN.md).
type admission[T any] struct {
	policy Admission

	mu     sync.Mutex
	free   []T
	queues [][]*waiter[T] // per class, in arrival order
	n      int            // waiters in all queues
	seq    uint64         // arrivals so far: a waiter's order
	// credit is what renders admitted ahead of creditOf, the oldest waiter
	// when it was last looked at, may still cost.
	creditOf *waiter[T]
	credit   time.Duration
}

// waiter is one render waiting for an isolate.
type waiter[T any] struct {
	got   chan T        // receives the isolate; buffered 1
	class int           // index into admission.queues
	seq   uint64        // arrival order
	cost  time.Duration // expected cost, at least minCost
}

// newAdmission returns an admission of policy over the isolates in free
// for renders of classes classes (0 to classes-1).
func newAdmission[T any](policy Admission, classes int, free []T) *admission[T] {
	return &admission[T]{policy: policy, free: free, queues: make([][]*waiter[T], max(classes, 1))}
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

// acquire returns a free isolate for a render of class expected to cost
// cost, waiting for a release when none is free. It returns ErrBusy when
// wait fires first, ctx.Err() when ctx ends first; an isolate handed over
// at that moment is taken anyway.
func (a *admission[T]) acquire(ctx context.Context, class int, cost time.Duration, wait <-chan time.Time) (T, error) {
	a.mu.Lock()
	if n := len(a.free); n > 0 {
		t := a.free[n-1]
		a.free = a.free[:n-1]
		a.mu.Unlock()
		return t, nil
	}
	if a.policy == AdmissionArrival {
		class = 0 // one queue: arrival order
	}
	a.seq++
	w := &waiter[T]{got: make(chan T, 1), class: class, seq: a.seq, cost: max(cost, minCost)}
	a.queues[class] = append(a.queues[class], w)
	a.n++
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
	if a.n == 0 {
		return nil
	}
	var cheapest, oldest *waiter[T]
	for _, q := range a.queues {
		if len(q) == 0 {
			continue
		}
		h := q[0]
		if oldest == nil || h.seq < oldest.seq {
			oldest = h
		}
		if cheapest == nil || h.cost < cheapest.cost || h.cost == cheapest.cost && h.seq < cheapest.seq {
			cheapest = h
		}
	}
	w := oldest
	if a.policy == AdmissionCost && cheapest != oldest {
		if oldest != a.creditOf {
			a.creditOf, a.credit = oldest, oldest.cost
		}
		if cheapest.cost <= a.credit {
			a.credit -= cheapest.cost
			w = cheapest
		}
	}
	a.remove(w)
	return w
}

// remove takes w out of its queue and reports whether it was there.
// Called with mu held.
func (a *admission[T]) remove(w *waiter[T]) bool {
	q := a.queues[w.class]
	for i, x := range q {
		if x == w {
			if i == 0 { // the common case: no copy
				q[0], q = nil, q[1:]
			} else {
				q = slices.Delete(q, i, i+1) // clears the vacated end
			}
			a.queues[w.class] = q
			a.n--
			if w == a.creditOf {
				a.creditOf = nil
			}
			return true
		}
	}
	return false
}

// waiting returns the number of renders waiting (tests).
func (a *admission[T]) waiting() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}

// parseAdmission checks a Config.Admission value; "" is AdmissionCost.
func parseAdmission(v Admission) (Admission, error) {
	switch v {
	case "":
		return AdmissionCost, nil
	case AdmissionCost, AdmissionArrival:
		return v, nil
	}
	return "", fmt.Errorf("runtime: admission %q, want %q or %q", v, AdmissionCost, AdmissionArrival)
}
