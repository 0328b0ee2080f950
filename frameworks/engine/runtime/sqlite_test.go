package runtime

import (
	"reflect"
	"testing"
)

func TestParseParams(t *testing.T) {
	d := &db{}
	for _, tc := range []struct {
		in      string
		want    []any
		wantErr string
	}{
		{"", nil, ""},
		{"[]", nil, ""}, // no params
		{"[4174]", []any{int64(4174)}, ""},
		{"[0,-12,999999999999999]", []any{int64(0), int64(-12), int64(999999999999999)}, ""},
		// Not the integer fast path: encoding/json decides.
		{"[1.5]", []any{1.5}, ""},
		{"[ 7 ]", []any{float64(7)}, ""},
		{"[9007199254740993]", []any{float64(9007199254740992)}, ""}, // 16 digits: a JS number, rounded
		{`[1,"a",null,true]`, []any{float64(1), "a", nil, true}, ""},
		{"[01]", nil, `sqlite "S": params "[01]": want a JSON array: invalid character '1' after array element`},
		{"[1,]", nil, `sqlite "S": params "[1,]": want a JSON array: invalid character ']' looking for beginning of value`},
		{"[1]x", nil, `sqlite "S": params "[1]x": want a JSON array: invalid character 'x' after top-level value`},
		{"[-]", nil, `sqlite "S": params "[-]": want a JSON array: invalid character ']' in numeric literal`},
	} {
		got, err := d.parseParams("S", tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("parseParams(%q) error = %v, want %s", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseParams(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseParamsList(t *testing.T) {
	d := &db{}
	for _, tc := range []struct {
		in   string
		want [][]any
	}{
		{"[]", nil},
		{"[[1],[22,-3],[]]", [][]any{{int64(1)}, {int64(22), int64(-3)}, {}}},
		{"[[1],[2.5]]", [][]any{{float64(1)}, {2.5}}},
		{`[[1],["x"]]`, [][]any{{float64(1)}, {"x"}}},
	} {
		got, err := d.parseParamsList("S", tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseParamsList(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
	// 40 lists through the fast path: each list keeps its own values even
	// though the flat buffer grew (and moved) while scanning.
	in, want := "[", [][]any{}
	for i := range 40 {
		if i > 0 {
			in += ","
		}
		in += "[" + string(rune('1'+i%9)) + "," + string(rune('1'+i%9)) + "]"
		want = append(want, []any{int64(1 + i%9), int64(1 + i%9)})
	}
	got, err := d.parseParamsList("S", in+"]")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("40 lists: %v, %v", got, err)
	}
	if _, err := d.parseParamsList("S", "[[1],2]"); err == nil || err.Error() != `sqlite "S": params list "[[1],2]": want a JSON array of arrays: json: cannot unmarshal number into Go value of type []interface {}` {
		t.Errorf("[[1],2] error = %v", err)
	}
}
