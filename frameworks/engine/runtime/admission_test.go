package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// fakeRenders drives an admission over isolates that are ints: each
// render is a goroutine that waits in acquire and reports its admission;
// the test ends a render by releasing its isolate. No clock is read: the
// admission order is the result.
type fakeRenders struct {
	t        *testing.T
	a        *admission[int]
	admitted chan admittedRender
}

// admittedRender is one render that got an isolate (or an error).
type admittedRender struct {
	name string
	iso  int
	err  error
}

func newFakeRenders(t *testing.T, policy Admission, isolates int) *fakeRenders {
	free := make([]int, isolates)
	for i := range free {
		free[i] = i
	}
	return &fakeRenders{t: t, a: newAdmission(policy, free), admitted: make(chan admittedRender, 64)}
}

// busy takes every free isolate, as renders under way.
func (f *fakeRenders) busy() []int {
	var held []int
	for {
		iso, ok := f.a.tryAcquire()
		if !ok {
			return held
		}
		held = append(held, iso)
	}
}

// enqueue starts render name and returns once it waits in the queue.
func (f *fakeRenders) enqueue(name string, short bool, cost time.Duration) {
	f.enqueueWith(context.Background(), nil, name, short, cost)
}

func (f *fakeRenders) enqueueWith(ctx context.Context, wait <-chan time.Time, name string, short bool, cost time.Duration) {
	f.t.Helper()
	s0, l0 := f.a.waiting()
	go func() {
		iso, err := f.a.acquire(ctx, short, cost, wait)
		f.admitted <- admittedRender{name, iso, err}
	}()
	eventually(f.t, "render "+name+" queued", func() bool {
		s, l := f.a.waiting()
		return s+l == s0+l0+1
	})
}

// next returns the next admitted render.
func (f *fakeRenders) next() admittedRender {
	f.t.Helper()
	select {
	case r := <-f.admitted:
		return r
	case <-time.After(10 * time.Second): // liveness only: a missing admission
		f.t.Fatal("no render admitted within 10 s")
		return admittedRender{}
	}
}

// order releases iso, then releases each admitted render's isolate in
// turn, n times, and returns the names in the order they were admitted.
func (f *fakeRenders) order(iso, n int) []string {
	f.t.Helper()
	var names []string
	for range n {
		f.a.release(iso)
		r := f.next()
		if r.err != nil {
			f.t.Fatalf("render %s: %v", r.name, r.err)
		}
		names = append(names, r.name)
		iso = r.iso
	}
	select {
	case r := <-f.admitted:
		f.t.Fatalf("render %s admitted without a free isolate", r.name)
	default:
	}
	return names
}

// eventually waits until cond holds; the 10 s bound is liveness only.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

const (
	pageCost      = 16 * time.Millisecond // a 10,000-row page
	plaintextCost = 5 * time.Microsecond
)

// The rule (README, Short routes first): a short route waits for the render
// under way, never for the long renders queued before it.
func TestAdmissionShortPassesQueuedLongs(t *testing.T) {
	f := newFakeRenders(t, AdmissionCost, 1)
	held := f.busy() // page 0 renders
	var want []string
	for i := 1; i <= 16; i++ {
		f.enqueue(fmt.Sprintf("page%d", i), false, pageCost)
		want = append(want, fmt.Sprintf("page%d", i))
	}
	f.enqueue("plaintext", true, plaintextCost)
	want = append([]string{"plaintext"}, want...)
	if got := f.order(held[0], 17); !slices.Equal(got, want) {
		t.Errorf("admitted %v\nwant     %v", got, want)
	}
}

// With two isolates both rendering pages, the short route takes the first
// one released.
func TestAdmissionShortTakesFirstReleased(t *testing.T) {
	f := newFakeRenders(t, AdmissionCost, 2)
	held := f.busy()
	if len(held) != 2 {
		t.Fatalf("held %d isolates, want 2", len(held))
	}
	f.enqueue("page2", false, pageCost)
	f.enqueue("page3", false, pageCost)
	f.enqueue("json", true, plaintextCost)
	f.a.release(held[1])
	if r := f.next(); r.name != "json" || r.iso != held[1] {
		t.Errorf("first admitted %s on isolate %d, want json on %d", r.name, r.iso, held[1])
	}
}

// The same queue in arrival order: the pool before this scheduler. The
// short route waits for all 16 pages (this test shows the rule can fail).
func TestAdmissionFIFO(t *testing.T) {
	f := newFakeRenders(t, AdmissionFIFO, 1)
	held := f.busy()
	var want []string
	for i := 1; i <= 16; i++ {
		f.enqueue(fmt.Sprintf("page%d", i), false, pageCost)
		want = append(want, fmt.Sprintf("page%d", i))
	}
	f.enqueue("plaintext", true, plaintextCost)
	want = append(want, "plaintext")
	if got := f.order(held[0], 17); !slices.Equal(got, want) {
		t.Errorf("admitted %v\nwant     %v", got, want)
	}
}

// A long render is passed by short ones costing at most its own expected
// render time in all, then goes next; the next long starts a fresh credit.
func TestAdmissionLongCredit(t *testing.T) {
	type item struct {
		name  string
		short bool
		cost  time.Duration
	}
	us := time.Microsecond
	for _, tc := range []struct {
		name  string
		queue []item
		want  []string
	}{
		{"shorts within the credit pass", []item{{"L", false, 10 * us}, {"s1", true, 3 * us}, {"s2", true, 3 * us}, {"s3", true, 3 * us}, {"s4", true, 3 * us}, {"s5", true, 3 * us}},
			[]string{"s1", "s2", "s3", "L", "s4", "s5"}},
		{"exactly the credit", []item{{"L", false, 6 * us}, {"s1", true, 3 * us}, {"s2", true, 3 * us}, {"s3", true, 3 * us}},
			[]string{"s1", "s2", "L", "s3"}},
		{"the next long's credit is fresh", []item{{"L1", false, 4 * us}, {"L2", false, 6 * us}, {"s1", true, 3 * us}, {"s2", true, 3 * us}, {"s3", true, 3 * us}, {"s4", true, 3 * us}},
			[]string{"s1", "L1", "s2", "s3", "L2", "s4"}},
		{"a short of unknown cost is charged minCost", []item{{"L", false, 2 * us}, {"s1", true, 0}, {"s2", true, 0}, {"s3", true, 0}},
			[]string{"s1", "s2", "L", "s3"}},
		{"no long waits", []item{{"s1", true, 3 * us}, {"s2", true, 500 * us}},
			[]string{"s1", "s2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRenders(t, AdmissionCost, 1)
			held := f.busy()
			for _, it := range tc.queue {
				f.enqueue(it.name, it.short, it.cost)
			}
			if got := f.order(held[0], len(tc.queue)); !slices.Equal(got, tc.want) {
				t.Errorf("admitted %v\nwant     %v", got, tc.want)
			}
		})
	}
}

// A render that gives up waiting leaves the queue with ErrBusy (the queue
// timeout fired) or its context's error; a long head that leaves hands a
// fresh credit to the next long.
func TestAdmissionGiveUp(t *testing.T) {
	us := time.Microsecond
	f := newFakeRenders(t, AdmissionCost, 1)
	held := f.busy()
	timeout := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	f.enqueueWith(context.Background(), timeout, "L1", false, 10*us)
	f.enqueue("L2", false, 6*us)
	f.enqueueWith(ctx, nil, "s0", true, 3*us)
	f.enqueue("s1", true, 3*us)
	f.enqueue("s2", true, 3*us)
	f.enqueue("s3", true, 3*us)
	f.enqueue("s4", true, 3*us)

	cancel()
	if r := f.next(); r.name != "s0" || !errors.Is(r.err, context.Canceled) {
		t.Errorf("after cancel: %s %v, want s0 context.Canceled", r.name, r.err)
	}
	f.a.release(held[0])
	r := f.next() // s1 passes L1: its credit 10 → 7
	if r.name != "s1" {
		t.Fatalf("admitted %s, want s1", r.name)
	}
	close(timeout)
	if r := f.next(); r.name != "L1" || r.err != ErrBusy {
		t.Errorf("after the timeout: %s %v, want L1 ErrBusy", r.name, r.err)
	}
	if s, l := f.a.waiting(); s != 3 || l != 1 {
		t.Errorf("waiting %d short, %d long, want 3 and 1", s, l)
	}
	// L2 heads the long queue with its own credit of 6 µs: two shorts pass.
	if got, want := f.order(r.iso, 4), []string{"s2", "s3", "L2", "s4"}; !slices.Equal(got, want) {
		t.Errorf("admitted %v\nwant     %v", got, want)
	}
}

func TestCostEstimate(t *testing.T) {
	var c costEstimate
	if got := c.expected(); got != 0 {
		t.Errorf("before a render: %v, want 0", got)
	}
	ms := time.Millisecond
	for _, step := range []struct{ render, want time.Duration }{
		{8 * ms, 8 * ms},  // the first render is the estimate
		{0, 7 * ms},       // 8 + (0 − 8)/8
		{15 * ms, 8 * ms}, // 7 + (15 − 7)/8
	} {
		c.observe(step.render)
		if got := c.expected(); got != step.want {
			t.Errorf("after a render of %v: %v, want %v", step.render, got, step.want)
		}
	}
	var z costEstimate
	z.observe(0)
	if got := z.expected(); got != 1 {
		t.Errorf("after a render of 0: %v, want 1ns (rendered once)", got)
	}
}

func TestParseAdmission(t *testing.T) {
	for in, want := range map[Admission]Admission{"": AdmissionCost, "cost": AdmissionCost, "fifo": AdmissionFIFO} {
		if got, err := parseAdmission(in); got != want || err != nil {
			t.Errorf("parseAdmission(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	_, err := parseAdmission("lifo")
	if want := `runtime: admission "lifo", want "cost" or "fifo"`; err == nil || err.Error() != want {
		t.Errorf("parseAdmission(lifo) error %v, want %s", err, want)
	}
}
