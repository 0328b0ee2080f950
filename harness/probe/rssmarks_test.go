package probe

import "testing"

func TestRSSMarks(t *testing.T) {
	r := rssMarks{m: map[rssKey]uint64{}}
	a, reused, b := rssKey{10, 1000}, rssKey{10, 2000}, rssKey{11, 1000}
	for i, step := range []struct {
		k        rssKey
		rss, max uint64
	}{
		{a, 100, 100},
		{a, 300, 300},
		{a, 200, 300},    // below the mark: the mark stays
		{reused, 50, 50}, // same pid, another process
		{b, 70, 70},
		{a, 250, 300},
	} {
		if got := r.max(step.k, step.rss); got != step.max {
			t.Errorf("step %d: max(%v, %d) = %d, want %d", i, step.k, step.rss, got, step.max)
		}
	}
	for pid := range maxSeen - len(r.m) {
		r.max(rssKey{1000 + pid, 1}, 1)
	}
	if len(r.m) != maxSeen {
		t.Fatalf("%d marks, want %d", len(r.m), maxSeen)
	}
	if got := r.max(a, 10); got != 10 || len(r.m) != 1 {
		t.Errorf("at %d marks: max(a, 10) = %d with %d marks; want 10 with 1 (emptied)", maxSeen, got, len(r.m))
	}
}
