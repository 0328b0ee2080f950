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

// classes is the number of classes (routes) of a fake admission.
const classes = 4

func newFakeRenders(t *testing.T, policy Admission, isolates int) *fakeRenders {
	free := make([]int, isolates)
	for i := range free {
		free[i] = i
	}
	return &fakeRenders{t: t, a: newAdmission(policy, classes, free), admitted: make(chan admittedRender, 64)}
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

// enqueue starts render name of class and returns once it waits in the
// queue.
func (f *fakeRenders) enqueue(name string, class int, cost time.Duration) {
	f.enqueueWith(context.Background(), nil, name, class, cost)
}

func (f *fakeRenders) enqueueWith(ctx context.Context, wait <-chan time.Time, name string, class int, cost time.Duration) {
	f.t.Helper()
	n0 := f.a.waiting()
	go func() {
		iso, err := f.a.acquire(ctx, class, cost, wait)
		f.admitted <- admittedRender{name, iso, err}
	}()
	eventually(f.t, "render "+name+" queued", func() bool { return f.a.waiting() == n0+1 })
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

// Classes (routes) and expected costs of the fake renders.
const (
	plaintext = 0 // class of /plaintext
	page1k    = 1 // class of a 1,000-row page
	page10k   = 2 // class of a 10,000-row page

	plaintextCost = 5 * time.Microsecond
	page1kCost    = 500 * time.Microsecond
	page10kCost   = 16 * time.Millisecond
)

// The rule (README, Cheap renders first): a cheap render waits for the
// render under way, not for the dearer ones queued before it.
func TestAdmissionCheapPassesQueuedDearer(t *testing.T) {
	f := newFakeRenders(t, AdmissionCost, 1)
	held := f.busy() // page 0 renders
	var want []string
	for i := 1; i <= 16; i++ {
		f.enqueue(fmt.Sprintf("page%d", i), page10k, page10kCost)
		want = append(want, fmt.Sprintf("page%d", i))
	}
	f.enqueue("plaintext", plaintext, plaintextCost)
	want = append([]string{"plaintext"}, want...)
	if got := f.order(held[0], 17); !slices.Equal(got, want) {
		t.Errorf("admitted %v\nwant     %v", got, want)
	}
}

// With two isolates both rendering pages, the cheap render takes the first
// one released.
func TestAdmissionCheapTakesFirstReleased(t *testing.T) {
	f := newFakeRenders(t, AdmissionCost, 2)
	held := f.busy()
	if len(held) != 2 {
		t.Fatalf("held %d isolates, want 2", len(held))
	}
	f.enqueue("page2", page10k, page10kCost)
	f.enqueue("page3", page10k, page10kCost)
	f.enqueue("json", plaintext, plaintextCost)
	f.a.release(held[1])
	if r := f.next(); r.name != "json" || r.iso != held[1] {
		t.Errorf("first admitted %s on isolate %d, want json on %d", r.name, r.iso, held[1])
	}
}

// Three routes of three costs, queued mixed: cheapest first, each route in
// arrival order (the first 10,000-row page's credit of 16 ms covers the
// 1,010 µs of the cheaper four).
func TestAdmissionThreeCosts(t *testing.T) {
	f := newFakeRenders(t, AdmissionCost, 1)
	held := f.busy()
	for _, r := range []struct {
		name  string
		class int
		cost  time.Duration
	}{
		{"big1", page10k, page10kCost}, {"mid1", page1k, page1kCost}, {"plain1", plaintext, plaintextCost},
		{"big2", page10k, page10kCost}, {"mid2", page1k, page1kCost}, {"plain2", plaintext, plaintextCost},
	} {
		f.enqueue(r.name, r.class, r.cost)
	}
	want := []string{"plain1", "plain2", "mid1", "mid2", "big1", "big2"}
	if got := f.order(held[0], len(want)); !slices.Equal(got, want) {
		t.Errorf("admitted %v\nwant     %v", got, want)
	}
}

// The same queue in arrival order: the pool before this scheduler. The
// cheap render waits for all 16 pages (this test shows the rule can fail).
func TestAdmissionArrival(t *testing.T) {
	f := newFakeRenders(t, AdmissionArrival, 1)
	held := f.busy()
	var want []string
	for i := 1; i <= 16; i++ {
		f.enqueue(fmt.Sprintf("page%d", i), page10k, page10kCost)
		want = append(want, fmt.Sprintf("page%d", i))
	}
	f.enqueue("plaintext", plaintext, plaintextCost)
	want = append(want, "plaintext")
	if got := f.order(held[0], 17); !slices.Equal(got, want) {
		t.Errorf("admitted %v\nwant     %v", got, want)
	}
}

// The credit rule exactly: the oldest waiter is passed by cheaper renders
// costing at most its own expected cost in all, then goes next; the next
// oldest starts with a full credit. Costs in µs; classes a, b, c.
func TestAdmissionCredit(t *testing.T) {
	type item struct {
		name  string
		class int
		cost  time.Duration // µs
	}
	const a, b, c = 0, 1, 2
	for _, tc := range []struct {
		name  string
		queue []item // in arrival order
		want  []string
	}{
		// credit of L: 10 → 7 → 4 → 1; s4 (3) > 1.
		{"cheaper renders within the credit pass", []item{{"L", c, 10}, {"s1", a, 3}, {"s2", a, 3}, {"s3", a, 3}, {"s4", a, 3}, {"s5", a, 3}},
			[]string{"s1", "s2", "s3", "L", "s4", "s5"}},
		// 6 → 3 → 0: a pick costing exactly the credit left passes.
		{"exactly the credit", []item{{"L", c, 6}, {"s1", a, 3}, {"s2", a, 3}, {"s3", a, 3}},
			[]string{"s1", "s2", "L", "s3"}},
		// L1: 4 → 1, s2 (3) > 1; L2 starts at 6 → 3 → 0.
		{"the next oldest's credit is full", []item{{"L1", c, 4}, {"L2", c, 6}, {"s1", a, 3}, {"s2", a, 3}, {"s3", a, 3}, {"s4", a, 3}},
			[]string{"s1", "L1", "s2", "s3", "L2", "s4"}},
		// The cheapest of three costs first, each spending L's 10: 7, 4, 0.
		{"three costs within the credit", []item{{"L", c, 10}, {"M", b, 4}, {"s1", a, 3}, {"s2", a, 3}},
			[]string{"s1", "s2", "M", "L"}},
		// 9 → 6 → 3; M (4) > 3 goes after L.
		{"three costs over the credit", []item{{"L", c, 9}, {"M", b, 4}, {"s1", a, 3}, {"s2", a, 3}},
			[]string{"s1", "s2", "L", "M"}},
		// M, the oldest: 4 → 1; then M is the cheapest head; then L.
		{"the oldest need not be the dearest", []item{{"M", b, 4}, {"L", c, 10}, {"s", a, 3}},
			[]string{"s", "M", "L"}},
		// 2 → 1 → 0 at minCost (1 µs) each.
		{"an unknown cost counts as minCost", []item{{"L", c, 2}, {"s1", a, 0}, {"s2", a, 0}, {"s3", a, 0}},
			[]string{"s1", "s2", "L", "s3"}},
		{"equal costs go in arrival order", []item{{"x1", a, 3}, {"y1", b, 3}, {"x2", a, 3}, {"y2", b, 3}},
			[]string{"x1", "y1", "x2", "y2"}},
		// Within a class, arrival order, whatever the cost each was queued with.
		{"a class keeps arrival order", []item{{"s1", a, 5}, {"s2", a, 1}, {"t", b, 3}},
			[]string{"t", "s1", "s2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRenders(t, AdmissionCost, 1)
			held := f.busy()
			for _, it := range tc.queue {
				f.enqueue(it.name, it.class, it.cost*time.Microsecond)
			}
			if got := f.order(held[0], len(tc.queue)); !slices.Equal(got, tc.want) {
				t.Errorf("admitted %v\nwant     %v", got, tc.want)
			}
		})
	}
}

// A render that gives up waiting leaves its queue with ErrBusy (the queue
// timeout fired) or its context's error, from the head or the middle; the
// oldest waiter that leaves hands a full credit to the next oldest.
func TestAdmissionGiveUp(t *testing.T) {
	us := time.Microsecond
	f := newFakeRenders(t, AdmissionCost, 1)
	held := f.busy()
	timeout := make(chan time.Time)
	ctx0, cancel0 := context.WithCancel(context.Background())
	ctxX, cancelX := context.WithCancel(context.Background())
	f.enqueueWith(context.Background(), timeout, "L1", page10k, 10*us)
	f.enqueue("L2", page1k, 6*us)
	f.enqueueWith(ctx0, nil, "s0", plaintext, 3*us)
	f.enqueue("s1", plaintext, 3*us)
	f.enqueueWith(ctxX, nil, "sX", plaintext, 3*us)
	f.enqueue("s2", plaintext, 3*us)
	f.enqueue("s3", plaintext, 3*us)
	f.enqueue("s4", plaintext, 3*us)

	cancel0() // the head of its queue
	if r := f.next(); r.name != "s0" || !errors.Is(r.err, context.Canceled) {
		t.Errorf("after cancel: %s %v, want s0 context.Canceled", r.name, r.err)
	}
	cancelX() // in the middle of its queue
	if r := f.next(); r.name != "sX" || !errors.Is(r.err, context.Canceled) {
		t.Errorf("after cancel: %s %v, want sX context.Canceled", r.name, r.err)
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
	if n := f.a.waiting(); n != 4 {
		t.Errorf("%d waiting, want 4 (L2 s2 s3 s4)", n)
	}
	// L2 is the oldest now, with a full credit of 6 µs: two 3 µs pass.
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
	for in, want := range map[Admission]Admission{"": AdmissionCost, "cost": AdmissionCost, "arrival": AdmissionArrival} {
		if got, err := parseAdmission(in); got != want || err != nil {
			t.Errorf("parseAdmission(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	_, err := parseAdmission("lifo")
	if want := `runtime: admission "lifo", want "cost" or "arrival"`; err == nil || err.Error() != want {
		t.Errorf("parseAdmission(lifo) error %v, want %s", err, want)
	}
}
