package words

import "testing"

func TestWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Plural(1, "round"), "1 round"},
		{Plural(0, "round"), "0 rounds"},
		{Plural(3, "failed sample"), "3 failed samples"},
		{OrDash(""), "—"},
		{OrDash("x"), "x"},
		{Commit("0123456789abcdef0123"), "0123456789ab"},
		{Commit("abc"), "abc"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
