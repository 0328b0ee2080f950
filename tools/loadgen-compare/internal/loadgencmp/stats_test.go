package loadgencmp

import "testing"

func TestSummarize(t *testing.T) {
	cases := []struct {
		in   []float64
		want Summary
	}{
		{[]float64{5, 1, 3}, Summary{Median: 3, Min: 1, Max: 5, N: 3}},
		{[]float64{4, 1, 3, 10}, Summary{Median: 3.5, Min: 1, Max: 10, N: 4}},
		{[]float64{2}, Summary{Median: 2, Min: 2, Max: 2, N: 1}},
		{nil, Summary{}},
	}
	for _, c := range cases {
		if got := Summarize(c.in); got != c.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestThousands(t *testing.T) {
	cases := map[float64]string{
		0: "0", 999.4: "999", 999.5: "1,000", 1234567.6: "1,234,568", 100000: "100,000", -4321: "-4,321",
	}
	for in, want := range cases {
		if got := thousands(in); got != want {
			t.Errorf("thousands(%v) = %q, want %q", in, got, want)
		}
	}
}
