package bundle

import (
	"strings"
	"testing"
)

const rt = `import { jsx, jsxs } from "engine/jsx-runtime";` + "\n"

// TestPrecompile holds the compiled form of each kind of element, and the
// elements that stay runtime calls.
func TestPrecompile(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		compiled       int
	}{
		{"static", `x = jsx("p", { class: "a&b", children: "it's <b>" });`,
			`x = __engine_m("<p class=\"a&amp;b\">it&apos;s &lt;b&gt;</p>");`, 1},
		{"dynamic attribute and child", `x = jsx("td", { class: props.class, "data-n": 42, hidden: true, draggable: false, children: props.children });`,
			`x = __engine_m("<td" + __engine_a(" class=\"", props.class, "td class") + " data-n=\"42\" hidden>" + __engine_c(props.children) + "</td>");`, 1},
		{"nested elements inline, components stay calls", `x = jsxs("tr", { className: "row", children: [jsx("td", { children: w.id }), jsx(Cell, { v: 1 }), "t", 7, null] }, "k");`,
			`x = __engine_m("<tr class=\"row\"><td>" + __engine_c(w.id) + "</td>" + __engine_c(jsx(Cell, { v: 1 })) + "t7</tr>");`, 2},
		{"shorthand and an element inside an expression", "x = jsx(\"ul\", { title, children: xs.map((s) => jsx(\"li\", { children: s })) });",
			`x = __engine_m("<ul" + __engine_a(" title=\"", title, "ul title") + ">" + __engine_c(xs.map((s) => __engine_m("<li>" + __engine_c(s) + "</li>"))) + "</ul>");`, 2},
		{"void element", `x = jsx("img", { src: "a.png", alt: u });`,
			`x = __engine_m("<img src=\"a.png\"" + __engine_a(" alt=\"", u, "img alt") + ">");`, 1},
		{"text above U+007F as page bytes", `x = jsx("p", { title: "é", children: "—" });`,
			`x = __engine_m("<p title=\"\xc3\xa9\">\xe2\x80\x94</p>");`, 1},
		{"spread stays a call", `x = jsx("a", { ...p, children: "x" });`, `x = jsx("a", { ...p, children: "x" });`, 0},
		{"computed key stays a call", `x = jsx("a", { [k]: 1 });`, `x = jsx("a", { [k]: 1 });`, 0},
		{"void with children stays a call", `x = jsx("br", { children: "t" });`, `x = jsx("br", { children: "t" });`, 0},
		{"invalid tag stays a call", `x = jsx("a b", {});`, `x = jsx("a b", {});`, 0},
		{"member call is not the runtime's", `x = o.jsx("p", {});`, `x = o.jsx("p", {});`, 0},
		{"regexp, template and comments around", "const r = /[)}\\]]/g; // jsx(\"p\", {})\nx = jsx(\"p\", { children: `a${ {b: 1}.b }` /* } */ });",
			"const r = /[)}\\]]/g; // jsx(\"p\", {})\nx = __engine_m(\"<p>\" + __engine_c(`a${ {b: 1}.b }`) + \"</p>\");", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, n, err := precompile(rt+tc.in, true)
			if err != nil {
				t.Fatal(err)
			}
			want := rt + tc.want
			if tc.compiled > 0 {
				want = helperImport + want
			}
			if out != want || n != tc.compiled {
				t.Errorf("precompile:\n got %s (%d compiled)\nwant %s (%d)", out, n, want, tc.compiled)
			}
		})
	}
}

// TestPrecompileKeepsLines: every expression of a compiled element stays on
// its line, and so does the code after it.
func TestPrecompileKeepsLines(t *testing.T) {
	in := rt + "x = jsxs(\"tr\", {\n  \"data-id\": w.id,\n  children: [\n    jsx(\"td\", { children: a.b }),\n    jsx(\"td\", { children: c.d })\n  ]\n});\ny = 1;"
	out, _, err := precompile(in, true)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != strings.Count(in, "\n")+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), strings.Count(in, "\n")+1, out)
	}
	for _, w := range []struct {
		line int
		text string
	}{{2, "w.id"}, {4, "a.b"}, {5, "c.d"}, {8, "y = 1;"}} {
		if !strings.Contains(lines[w.line], w.text) {
			t.Errorf("line %d = %q, want it to hold %s; output:\n%s", w.line+1, lines[w.line], w.text, out)
		}
	}
}

// TestPrecompileUnreadable: a file the lexer cannot read is left alone.
func TestPrecompileUnreadable(t *testing.T) {
	for _, in := range []string{rt + `x = jsx("p", { children: "a" );`, rt + "x = `a${b"} {
		out, n, err := precompile(in, true)
		if err == nil || out != in || n != 0 {
			t.Errorf("precompile(%q) = %q, %d, %v; want it unchanged with an error", in, out, n, err)
		}
	}
}

// TestBuildPrecompiles: Build compiles the app's elements, BuildWith
// RuntimeJSX leaves them calls.
func TestBuildPrecompiles(t *testing.T) {
	b, err := Build("../app")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Script, `jsxMarkup('<tr class="row"' + jsxAttr(' data-id="', w.id, "tr data-id")`) {
		t.Errorf("Build: the World row is not precompiled:\n%s", b.Script)
	}
	r, err := BuildWith("../app", Options{RuntimeJSX: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.Script, "jsxMarkup(") || !strings.Contains(r.Script, `("tr", { class: "row", "data-id": w.id, children: [`) {
		t.Errorf("BuildWith RuntimeJSX: elements compiled:\n%s", r.Script)
	}
}
