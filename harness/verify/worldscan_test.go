package verify

import "testing"

func TestScanWorld(t *testing.T) {
	objects := map[string]bool{
		`{"id":1,"randomNumber":10000}`:           true,
		` { "randomNumber" : 7 , "id" : 9999 } `:  true,
		"{\n\t\"id\":1,\r\n\"randomNumber\":2}\n": true,
		`{"id":0,"randomNumber":1}`:               false, // out of range
		`{"id":10001,"randomNumber":1}`:           false,
		`{"id":100000,"randomNumber":1}`:          false,
		`{"id":01,"randomNumber":1}`:              false, // leading zero
		`{"id":-1,"randomNumber":1}`:              false,
		`{"id":1.0,"randomNumber":1}`:             false,
		`{"id":1e2,"randomNumber":1}`:             false,
		`{"id":"1","randomNumber":1}`:             false,
		`{"id":1,"id":2}`:                         false,
		`{"id":1}`:                                false,
		`{"id":1,"randomNumber":2,"x":3}`:         false,
		`{"id":1,"randomnumber":2}`:               false,
		`{"id":1,"randomNumber":2}x`:              false,
		`{"id":1,"randomNumber":2}{}`:             false,
		`{"i\u0064":1,"randomNumber":2}`:          false, // escapes take the slow path
		`[{"id":1,"randomNumber":2}]`:             false,
		``:                                        false,
		`{"id":1,"randomNumber":`:                 false,
	}
	for body, want := range objects {
		if got := scanWorldObject([]byte(body)); got != want {
			t.Errorf("scanWorldObject(%q) = %v, want %v", body, got, want)
		}
	}
	arrays := []struct {
		body string
		rows int
		ok   bool
	}{
		{`[]`, 0, true},
		{`[{"id":1,"randomNumber":2}]`, 1, true},
		{` [ {"id":1,"randomNumber":2} , {"randomNumber":3,"id":4} ] `, 2, true},
		{`[{"id":1,"randomNumber":2},]`, 0, false},
		{`[{"id":1,"randomNumber":2}`, 0, false},
		{`[{"id":1,"randomNumber":2}] []`, 0, false},
		{`[1]`, 0, false},
		{`{"id":1,"randomNumber":2}`, 0, false},
	}
	for _, c := range arrays {
		rows, ok := scanWorldArray([]byte(c.body))
		if rows != c.rows || ok != c.ok {
			t.Errorf("scanWorldArray(%q) = %d, %v, want %d, %v", c.body, rows, ok, c.rows, c.ok)
		}
	}
}

// TestScanWorldRows: rows compared with a World (ids 1..3 hold 7, 8, 9).
func TestScanWorldRows(t *testing.T) {
	w := World{7, 8, 9}
	cases := []struct {
		body   string
		world  World
		single bool
		rows   int
		ok     bool
	}{
		{`{"id":2,"randomNumber":8}`, w, true, 0, true},
		{` {"randomNumber":9,"id":3} `, w, true, 0, true},
		{`{"id":2,"randomNumber":9}`, w, true, 0, false}, // not World's
		{`{"id":4,"randomNumber":1}`, w, true, 0, false}, // not in World
		{`{"id":4,"randomNumber":1}`, nil, true, 0, true},
		{`[{"id":2,"randomNumber":8}]`, w, true, 0, false}, // db: an object
		{`[{"id":2,"randomNumber":8},{"id":1,"randomNumber":7}]`, w, false, 2, true},
		{`[{"id":2,"randomNumber":8},{"id":1,"randomNumber":7}]`, w, false, 0, true},
		{`[{"id":2,"randomNumber":8},{"id":1,"randomNumber":7}]`, w, false, 3, false},
		{`[{"id":2,"randomNumber":8},{"id":1,"randomNumber":8}]`, w, false, 2, false},
		{`[{"id":2,"randomNumber":8},{"id":1,"randomNumber":8}]`, nil, false, 2, true},
		{`[{"id":2,"randomNumber":10001}]`, nil, false, 1, false},
		{`[]`, w, false, 0, false},
		{`{"id":2,"randomNumber":8}`, w, false, 1, false},
	}
	for _, c := range cases {
		if got := scanWorldRows([]byte(c.body), c.world, c.single, c.rows); got != c.ok {
			t.Errorf("scanWorldRows(%q, %v, single %v, rows %d) = %v, want %v", c.body, c.world, c.single, c.rows, got, c.ok)
		}
	}
}
