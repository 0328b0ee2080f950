package runtime

import (
	"fmt"
	"strings"
	"testing"

	v8 "github.com/tommie/v8go"
)

// TestV8Links proves the prebuilt V8 links on this machine (the glibc and
// libstdc++ forwarding files) and runs JavaScript.
func TestV8Links(t *testing.T) {
	if v := v8.Version(); !strings.HasPrefix(v, "13.6.") {
		t.Errorf("V8 version %q, want 13.6.x (tommie/v8go v0.34.0)", v)
	}
	iso := v8.NewIsolate()
	defer iso.Dispose()
	ctx := v8.NewContext(iso)
	defer ctx.Close()
	val, err := ctx.RunScript(`[1, 2, 3].map(x => x * 7).join("+")`, "t.js")
	if err != nil {
		t.Fatal(err)
	}
	if got := val.String(); got != "7+14+21" {
		t.Errorf("script = %q, want 7+14+21", got)
	}
}

// TestAppendBytes holds the patched-in v8go Value.AppendBytes
// (third_party/v8go/PATCH.md): exact bytes and encoding for each kind of
// string V8 makes, and the same text as String().
func TestAppendBytes(t *testing.T) {
	iso := v8.NewIsolate()
	defer iso.Dispose()
	ctx := v8.NewContext(iso)
	defer ctx.Close()
	for _, tc := range []struct {
		name, js string
		want     string // the bytes AppendBytes appends
		oneByte  bool
	}{
		{"one-byte", `"caf\u00e9 <b>"`, "caf\xe9 <b>", true},
		{"ASCII", `"plain"`, "plain", true},
		{"two-byte", `"caf\u00e9 \u2014 \u30d5 \u{1d11e}"`, "café — フ 𝄞", false},
		{"cons, one-byte", `(() => { let s = ""; for (let i = 0; i < 40; i++) s += "r" + i + "\u00ff"; return s; })()`, consLatin1(40), true},
		{"cons, two-byte", `(() => { let s = "\u2014"; for (let i = 0; i < 40; i++) s += "r" + i + "\u00ff"; return s; })()`, "—" + strings.ReplaceAll(consLatin1(40), "\xff", "ÿ"), false},
		{"two-byte parent, Latin-1 slice", `("\u0100" + "\u00e9x".repeat(20)).slice(1)`, strings.Repeat("\xe9x", 20), true},
		{"orphan surrogate", `"a\ud800b"`, "a\uFFFDb", false},
		{"empty", `""`, "", true},
		{"number", `42.5`, "42.5", true},
		{"object with toString", `({toString() { return "\u2014x"; }})`, "—x", false},
		{"throwing toString", `({toString() { throw new Error("no"); }})`, "", false}, // "" as String() gives
		{"undefined", `undefined`, "undefined", true},
	} {
		val, err := ctx.RunScript(tc.js, "t.js")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, dst := range [][]byte{nil, []byte("p:"), make([]byte, 2, 4096)} {
			prefix := string(dst)
			got, oneByte := val.AppendBytes(dst)
			if string(got) != prefix+tc.want || oneByte != tc.oneByte {
				t.Errorf("%s: AppendBytes(%q, cap %d) = %q, %v; want %q, %v", tc.name, prefix, cap(dst), got, oneByte, prefix+tc.want, tc.oneByte)
			}
			if cap(dst) >= len(prefix)+len(tc.want) && cap(dst) > 0 && &got[0] != &dst[0] {
				t.Errorf("%s: AppendBytes grew a buffer that had room (cap %d)", tc.name, cap(dst))
			}
			text := string(got[len(prefix):])
			if oneByte {
				text = latin1ToUTF8(text)
			}
			if tc.name != "throwing toString" && text != val.String() {
				t.Errorf("%s: AppendBytes as text %q, String() %q", tc.name, text, val.String())
			}
		}
		val.Release()
	}
}

// consLatin1 is the one-byte text of the cons-string cases: "r0\xff" ...
func consLatin1(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "r%d\xff", i)
	}
	return b.String()
}
