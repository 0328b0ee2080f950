package equiv

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCompareIdentical(t *testing.T) {
	body := []byte("<!DOCTYPE html><html><body><table><tr><td>1</td></tr></table></body></html>")
	v := Compare(body, bytes.Clone(body), nil)
	if v != (Verdict{Identical: true, Offset: -1}) || v.String() != "identical (0 masks applied)" {
		t.Errorf("verdict %+v %q", v, v.String())
	}
	v = Compare(nil, []byte{}, nil)
	if !v.Identical {
		t.Errorf("two empty bodies: %+v", v)
	}
}

func TestCompareMaskedIdentical(t *testing.T) {
	base := []byte(`<div id="app-react-component-0f8fad5b-d9cb-469f-a165-70867728950e"><label for="_R_1b_">x</label><script src="/_next/static/chunks/page-4f1d2c3b5a6e7f80.js"></script></div>`)
	nw := []byte(`<div id="app-react-component-7c9e6679-7425-40de-944b-e07fc1f90ae7"><label for="_R_2c_">x</label><script src="/_next/static/chunks/page-0a1b2c3d4e5f6a7b.js"></script></div>`)
	v := Compare(base, nw, nil)
	if !v.Identical || v.Masks != 3 || v.String() != "identical (3 masks applied)" {
		t.Errorf("verdict %+v", v)
	}
	// An adapter's mask (framework.yaml `masks:`) applies after the defaults.
	base, nw = []byte(`<p data-t="1712345678">ok</p>`), []byte(`<p data-t="1712349999">ok</p>`)
	if v := Compare(base, nw, nil); v.Identical || v.Offset != 17 {
		t.Errorf("without the adapter's mask: %+v", v)
	}
	adapter := []*regexp.Regexp{regexp.MustCompile(`data-t="[0-9]+"`)}
	if v := Compare(base, nw, adapter); !v.Identical || v.Masks != 1 {
		t.Errorf("with the adapter's mask: %+v", v)
	}
}

func TestCompareDiffers(t *testing.T) {
	body := func(at int, c byte) []byte {
		b := make([]byte, 100)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		if at >= 0 {
			b[at] = c
		}
		return b
	}
	ref := string(body(-1, 0))
	for _, tc := range []struct {
		name      string
		at        int
		base, new string // excerpts
	}{
		{"first byte", 0, ref[:40], "X" + ref[1:40]},
		{"middle", 50, ref[10:90], ref[10:50] + "X" + ref[51:90]},
		{"last byte", 99, ref[59:], ref[59:99] + "X"},
	} {
		v := Compare([]byte(ref), body(tc.at, 'X'), nil)
		want := Verdict{Offset: tc.at, Base: tc.base, New: tc.new}
		if v != want {
			t.Errorf("%s: %+v, want %+v", tc.name, v, want)
		}
	}
	// One a prefix of the other: the difference is at the shorter length.
	v := Compare([]byte("<html></html>"), []byte("<html></html>\n"), nil)
	if v != (Verdict{Offset: 13, Base: "<html></html>", New: "<html></html>\n"}) {
		t.Errorf("new longer: %+v", v)
	}
	v = Compare([]byte("<html></html>\n"), []byte("<html></html>"), nil)
	if v.Offset != 13 || v.Base != "<html></html>\n" || v.New != "<html></html>" {
		t.Errorf("base longer: %+v", v)
	}
	if got, want := v.String(), `differs at byte 13: base "<html></html>\n" new "<html></html>"`; got != want {
		t.Errorf("String %s, want %s", got, want)
	}
	// The offset is in the masked base: a mask before the difference moves it.
	v = Compare([]byte(`a 0f8fad5b-d9cb-469f-a165-70867728950e b`), []byte(`a 7c9e6679-7425-40de-944b-e07fc1f90ae7 c`), nil)
	if want := len("a " + Placeholder + " "); v.Offset != want || v.Base != "a «masked» b" || v.New != "a «masked» c" || v.Masks != 1 {
		t.Errorf("masked offset: %+v, want offset %d", v, want)
	}
}

func TestCompareExcerptUTF8(t *testing.T) {
	// The start falls inside a 3-byte character: it moves back to its first
	// byte. 20 × "フ" is 60 bytes, the difference at 60, the start at 20
	// (the third byte of the seventh "フ") moves to 18.
	base := strings.Repeat("フ", 20) + "a"
	nw := strings.Repeat("フ", 20) + "b"
	v := Compare([]byte(base), []byte(nw), nil)
	if v.Offset != 60 || v.Base != strings.Repeat("フ", 14)+"a" || v.New != strings.Repeat("フ", 14)+"b" {
		t.Errorf("start inside a character: %+v", v)
	}
	// The end falls inside a 2-byte character: it moves past it. "a" then
	// 30 × "é"; the end at 40 is the second byte of the 20th "é".
	base = "a" + strings.Repeat("é", 30)
	nw = "b" + strings.Repeat("é", 30)
	v = Compare([]byte(base), []byte(nw), nil)
	if v.Offset != 0 || v.Base != "a"+strings.Repeat("é", 20) || v.New != "b"+strings.Repeat("é", 20) {
		t.Errorf("end inside a character: %+v", v)
	}
	// The difference inside a character (é is C3 A9, è C3 A8): the offset is
	// the byte, the excerpts whole characters.
	v = Compare([]byte("<td>é</td>"), []byte("<td>è</td>"), nil)
	if v.Offset != 5 || v.Base != "<td>é</td>" || v.New != "<td>è</td>" || !utf8.ValidString(v.Base) {
		t.Errorf("difference inside a character: %+v", v)
	}
	if got, want := v.String(), `differs at byte 5: base "<td>é</td>" new "<td>è</td>"`; got != want {
		t.Errorf("String %s, want %s", got, want)
	}
	// Invalid UTF-8 and control bytes are escaped by %q.
	v = Compare([]byte("a\xffb\x00"), []byte("a\xfeb\x00"), nil)
	if got, want := v.String(), `differs at byte 1: base "a\xffb\x00" new "a\xfeb\x00"`; got != want {
		t.Errorf("String %s, want %s", got, want)
	}
}

// mask returns the default mask named name.
func mask(t *testing.T, name string) *regexp.Regexp {
	t.Helper()
	for _, m := range Defaults {
		if m.Name == name {
			return m.RE
		}
	}
	t.Fatalf("no default mask %q", name)
	return nil
}

func TestDefaultMasks(t *testing.T) {
	for _, tc := range []struct {
		mask string
		in   string
		want string // in masked by that mask alone
	}{
		{"uuid", `<div id="hello-react-component-0f8fad5b-d9cb-469f-a165-70867728950e">`, `<div id="hello-react-component-«masked»">`},
		{"uuid", `["6BA7B810-9DAD-11D1-80B4-00C04FD430C8"]`, `["«masked»"]`},
		{"uuid", `id 0f8fad5bd9cb469fa16570867728950e, 2024-01-01, 0f8fad5b-d9cb-469f-a165-70867728950e0`, `id 0f8fad5bd9cb469fa16570867728950e, 2024-01-01, 0f8fad5b-d9cb-469f-a165-70867728950e0`},
		{"react-useid-colon", `<label for=":R1b:">a</label><input id=":r0:"/><p id=":R2H1:"></p><i id=":S1:"></i>`, `<label for="«masked»">a</label><input id="«masked»"/><p id="«masked»"></p><i id="«masked»"></i>`},
		{"react-useid-colon", `12:30:45, 0:["$","div"], :HL["/a.css"], {"a":"R1:"}, :R:`, `12:30:45, 0:["$","div"], :HL["/a.css"], {"a":"R1:"}, :R:`},
		{"react-useid-guillemet", `<input id="«r0»"/><label for="«R1bH2»">`, `<input id="«masked»"/><label for="«masked»">`},
		{"react-useid-guillemet", `«quoted» «R» «Rx»`, `«quoted» «R» «Rx»`},
		{"react-useid-underscore", `<input id="_R_1b_"/><p id="_R_0H1_"></p><b id="_r_a_"></b><i id="_S_1_"></i>`, `<input id="«masked»"/><p id="«masked»"></p><b id="«masked»"></b><i id="«masked»"></i>`},
		{"react-useid-underscore", `<div id="_R_">`, `<div id="_R_">`}, // React's completed-shell marker
		{"next-build-id", `0:{"P":null,"b":"w3Yd_Hk-2pQx9LmN0aBcD","p":""}`, `0:{"P":null,«masked»,"p":""}`},
		{"next-build-id", `self.__next_f.push([1,"0:{\"P\":null,\"b\":\"w3Yd_Hk-2pQx9LmN0aBcD\",\"p\":\"\"}"])`, `self.__next_f.push([1,"0:{\"P\":null,«masked»,\"p\":\"\"}"])`},
		{"next-build-id", `{"props":{},"page":"/","buildId":"w3Yd_Hk-2pQx9LmN0aBcD"}`, `{"props":{},"page":"/",«masked»}`},
		{"next-build-id", `{"b":7,"id":1,"randomNumber":4174,"bb":"x"}`, `{"b":7,"id":1,"randomNumber":4174,"bb":"x"}`},
		{"next-static-build-path", `<script src="/_next/static/w3Yd_Hk-2pQx9LmN0aBcD/_buildManifest.js">`, `<script src="«masked»_buildManifest.js">`},
		{"next-static-build-path", `/_next/static/chunks/main.js /_next/static/css/app.css /_next/static/media/font.woff2`, `/_next/static/chunks/main.js /_next/static/css/app.css /_next/static/media/font.woff2`},
		{"hashed-asset", `<script src="/assets/entry.client-DkIb3Qx2.js"></script><link href="/_astro/index.Bk3x9aZz.css"><script src="/build/q-Ab1_cD2-.mjs">`, `<script src="/assets/entry«masked»"></script><link href="/_astro/index«masked»"><script src="/build/q«masked»">`},
		{"hashed-asset", `app.js main-1a2b.js data-12345678.json x-12345678.jsx style.css`, `app.js main-1a2b.js data-12345678.json x-12345678.jsx style.css`},
	} {
		got, _ := Apply([]byte(tc.in), []*regexp.Regexp{mask(t, tc.mask)})
		if string(got) != tc.want {
			t.Errorf("%s on %s:\n got %s\nwant %s", tc.mask, tc.in, got, tc.want)
		}
	}
}

// TestDefaultMasksKeepData: no default mask touches the data of the pages
// tfbench compares: the World rows of a page (markup and RSC-style props),
// the fortunes page with its escaped script and Japanese text, json and
// plaintext bodies.
func TestDefaultMasksKeepData(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<!DOCTYPE html><html><head><title>SSR</title></head><body><table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>`)
	for _, r := range [][2]string{{"1", "4174"}, {"2", "9"}, {"10000", "10000"}} {
		page.WriteString(`<tr class="row" data-id="` + r[0] + `"><td class="id">` + r[0] + `</td><td class="num">` + r[1] + `</td></tr>`)
	}
	page.WriteString(`</tbody></table><script>self.__next_f.push([1,"5:[\"$\",\"$L6\",null,{\"id\":1,\"randomNumber\":4174}]\n"])</script></body></html>`)
	for _, body := range []string{
		page.String(),
		`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>` +
			`<tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr>` +
			`<tr><td>12</td><td>フレームワークのベンチマーク</td></tr><tr><td>0</td><td>Additional fortune added at request time.</td></tr></table></body></html>`,
		`{"message":"Hello, World!"}`,
		`Hello, World!`,
	} {
		all := make([]*regexp.Regexp, len(Defaults))
		for i, m := range Defaults {
			all[i] = m.RE
		}
		if got, n := Apply([]byte(body), all); n != 0 || string(got) != body {
			t.Errorf("%d matches in %s:\n%s", n, body, got)
		}
	}
}

func TestRandomRows(t *testing.T) {
	got, n := Apply([]byte(`[{"id":4174,"randomNumber":331},{"ID": 12, "randomnumber" : 9}]`), []*regexp.Regexp{RandomRows})
	if string(got) != `[{«masked»,«masked»},{«masked», «masked»}]` || n != 4 {
		t.Errorf("%d: %s", n, got)
	}
	if got, n := Apply([]byte(`{"message":"Hello, World!","idx":1}`), []*regexp.Regexp{RandomRows}); n != 0 {
		t.Errorf("json masked: %s", got)
	}
}

// BenchmarkCompareLargePage: two 1.2 MB pages of 10,000 rows with an RSC
// payload, identical after masking.
func BenchmarkCompareLargePage(b *testing.B) {
	var page strings.Builder
	for i := range 10000 {
		page.WriteString(`<tr class="row" data-id="7"><td class="id">7</td><td class="num">4174</td></tr>`)
		page.WriteString(`self.__next_f.push([1,"5:[\"$\",\"$L6\",null,{\"id\":7,\"randomNumber\":4174,\"k\":\"_R_` + strings.Repeat("a", i%5+1) + `_\"}]\n"])`)
	}
	body := []byte(page.String())
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if v := Compare(body, body, nil); !v.Identical {
			b.Fatal(v)
		}
	}
}
