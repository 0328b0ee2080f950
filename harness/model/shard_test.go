package model

import "testing"

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"2/8", Shard{2, 8}, ""},
		{"1/1", Shard{1, 1}, ""},
		{"08/08", Shard{8, 8}, ""},
		{"3", Shard{}, "--shard 3: want I/N, e.g. 2/8"},
		{"", Shard{}, "--shard : want I/N, e.g. 2/8"},
		{"a/b", Shard{}, "--shard a/b: want I/N, e.g. 2/8"},
		{"-1/8", Shard{}, "--shard -1/8: want I/N, e.g. 2/8"},
		{"1/2/3", Shard{}, "--shard 1/2/3: want I/N, e.g. 2/8"},
		{" 1/2", Shard{}, "--shard  1/2: want I/N, e.g. 2/8"},
		{"1/99999999999999999999", Shard{}, "--shard 1/99999999999999999999: want I/N, e.g. 2/8"},
		{"1/0", Shard{}, "--shard 1/0: N must be at least 1"},
		{"0/8", Shard{}, "--shard 0/8: I must be from 1 to 8"},
		{"9/8", Shard{}, "--shard 9/8: I must be from 1 to 8"},
	} {
		got, err := ParseShard(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("ParseShard(%q): %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if got := (Shard{2, 8}).String(); got != "2/8" {
		t.Errorf("String = %q", got)
	}
	if got := (Shard{}).String(); got != "" {
		t.Errorf("the zero Shard's String = %q, want empty", got)
	}
}
