package verify

import "testing"

func TestWorse(t *testing.T) {
	cases := []struct{ a, b, want Status }{
		{Pass, Pass, Pass},
		{Pass, Warn, Warn},
		{Warn, Pass, Warn},
		{Warn, Fail, Fail},
		{Fail, Warn, Fail},
		{Pass, Fail, Fail},
		{"", Pass, Pass},
		{"", "", Pass},
		{"", Warn, Warn},
	}
	for _, c := range cases {
		if got := Worse(c.a, c.b); got != c.want {
			t.Errorf("Worse(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestResultAddCappedAndMerge(t *testing.T) {
	r := pass()
	r.addCapped(Fail, Warn, "row %d", 1)
	if r.Status != Warn {
		t.Errorf("capped fail: %s, want warn", r.Status)
	}
	var o Result
	o.add(Fail, "bad")
	r.merge(o, "GET /x: ")
	if r.Status != Fail || len(r.Reasons) != 2 || r.Reasons[0] != "row 1" || r.Reasons[1] != "GET /x: bad" {
		t.Errorf("merged %s %q, want fail [row 1, GET /x: bad]", r.Status, r.Reasons)
	}
}
