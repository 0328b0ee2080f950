package cpuset

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestParseString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Set
		str  string
	}{
		{"", nil, ""},
		{"0", Set{0}, "0"},
		{"0,2-3", Set{0, 2, 3}, "0,2-3"},
		{" 3 , 1-2 ", Set{1, 2, 3}, "1-3"},
		{"5,0-1,1,7", Set{0, 1, 5, 7}, "0-1,5,7"},
		{"4-4", Set{4}, "4"},
		{"0-3,8-11", Set{0, 1, 2, 3, 8, 9, 10, 11}, "0-3,8-11"},
		{"1023", Set{1023}, "1023"},
	} {
		got, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q) = %v, want %v", tc.in, got, tc.want)
		}
		if s := got.String(); s != tc.str {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, s, tc.str)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"a":      `item "a": not a CPU id`,
		"1,":     `item "": not a CPU id`,
		"3-1":    `item "3-1": range end below its start`,
		"-1":     `item "-1": not a CPU id`,
		"0-x":    `item "0-x": not a CPU id`,
		"1024":   `item "1024": CPU id 1024 outside 0..1023`,
		"0,,1":   `item "": not a CPU id`,
		"1-2-3":  `item "1-2-3": not a CPU id`,
		"0-1025": `item "0-1025": CPU id 1025 outside 0..1023`,
	} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q): no error", in)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", in, err, want)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		all, gen, srv Set
		disjoint      bool
	}{
		{nil, nil, nil, false},
		{Set{3}, Set{3}, Set{3}, false},
		{Set{0, 1}, Set{0}, Set{1}, true},
		{Set{0, 1, 2}, Set{0}, Set{1, 2}, true},
		{Set{0, 1, 2, 3}, Set{0, 1}, Set{2, 3}, true},
		{Set{0, 1, 2, 3, 4}, Set{0, 1}, Set{2, 3, 4}, true},
		{Set{7, 2, 4, 2}, Set{2}, Set{4, 7}, true},
	} {
		g, s := Split(tc.all)
		if !slices.Equal(g, tc.gen) || !slices.Equal(s, tc.srv) {
			t.Errorf("Split(%v) = %v, %v; want %v, %v", tc.all, g, s, tc.gen, tc.srv)
		}
		if d := Disjoint(g, s); d != tc.disjoint {
			t.Errorf("Disjoint(Split(%v)) = %v, want %v", tc.all, d, tc.disjoint)
		}
	}
	// Appending to the generator set must not overwrite the server set.
	g, s := Split(Set{0, 1, 2, 3})
	_ = append(g, 99)
	if !slices.Equal(s, Set{2, 3}) {
		t.Errorf("server set aliased by generator set: %v", s)
	}
}

// TestUsable: a set's CPU count, or every CPU for the empty set (no
// pinning: the generator's share in the saturation rule, wrk's threads).
func TestUsable(t *testing.T) {
	if got := (Set{0, 2}).Usable(); got != 2 {
		t.Errorf("Set{0,2}.Usable() = %d, want 2", got)
	}
	if got, want := Set(nil).Usable(), runtime.NumCPU(); got != want {
		t.Errorf("Set(nil).Usable() = %d, want NumCPU %d", got, want)
	}
}
