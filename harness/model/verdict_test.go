package model

import "testing"

func TestWorse(t *testing.T) {
	cases := []struct{ a, b, want Verdict }{
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

func TestCapped(t *testing.T) {
	if got := Fail.Capped(Warn); got != Warn {
		t.Errorf("Fail.Capped(Warn) = %q, want warn", got)
	}
	if got := Pass.Capped(Warn); got != Pass {
		t.Errorf("Pass.Capped(Warn) = %q, want pass", got)
	}
}
