package verify

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// testWorld is a small World table: id i has randomNumber (i*7919)%10000+1.
func testWorld(n int) World {
	w := make(World, n)
	for i := range w {
		w[i] = int64((i+1)*7919%10000 + 1)
	}
	return w
}

// worldRows are World's first n rows as the reference server reads them.
func worldRows(w World, n int) []worldRow {
	rows := make([]worldRow, n)
	for i := range rows {
		rows[i] = worldRow{ID: i + 1, RandomNumber: int(w[i])}
	}
	return rows
}

// plainPage renders rows the way the page contract suggests, with no
// markup around the table; row(i, id, n) may replace a row's markup.
func plainPage(rows []worldRow, row func(i int, r worldRow) string) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>World</title></head><body><table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>")
	for i, r := range rows {
		if row != nil {
			b.WriteString(row(i, r))
			continue
		}
		fmt.Fprintf(&b, `<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, r.ID, r.ID, r.RandomNumber)
	}
	b.WriteString("</tbody></table></body></html>")
	return []byte(b.String())
}

// pageHeader is a correct page response's header set.
func pageHeader() http.Header {
	return http.Header{
		"Server": {"x"}, "Date": {"Sun, 29 Nov 2026 19:00:00 GMT"},
		"Content-Type": {"text/html; charset=utf-8"}, "Content-Length": {"1"},
	}
}

// TestPageRule applies the page rule to pages of a 12-row World, each case
// with the exact reasons it must give and whether the fast path takes it.
func TestPageRule(t *testing.T) {
	w := testWorld(12)
	rows := worldRows(w, 12)
	swap := slices.Clone(rows)
	swap[2], swap[3] = swap[3], swap[2]
	cases := []struct {
		name    string
		page    []byte
		n       int
		fast    bool // pageFast passes it
		reasons []string
		status  model.Verdict
	}{
		{"correct", plainPage(rows, nil), 12, true, nil, model.Pass},
		{"one row", plainPage(rows[:1], nil), 1, true, nil, model.Pass},
		{"the reference server's page: scripts and markup around the table", refPageHTML(rows), 12, true, nil, model.Pass},
		{"upper case, white space, quoted > in attributes, no thead", []byte(strings.ToUpper(string(plainPage(rows, func(_ int, r worldRow) string {
			return fmt.Sprintf("\n <TR title=\"a>b\" data-x='<td>'>\n  <TD class = \"id\"> %d </TD><td>\t%d\n</td></tr>", r.ID, r.RandomNumber)
		})))), 12, true, nil, model.Pass},
		{"entity-escaped digits", plainPage(rows, func(i int, r worldRow) string {
			if i == 3 { // id 4 as &#52;, the number in hex references
				return fmt.Sprintf("<tr><td>&#52;</td><td>%s</td></tr>", hexRefs(fmt.Sprint(r.RandomNumber)))
			}
			return fmt.Sprintf("<tr><td>%d</td><td>%d</td></tr>", r.ID, r.RandomNumber)
		}), 12, false, nil, model.Pass},
		{"hydration comments (Svelte, Solid, React text nodes)", plainPage(rows, func(_ int, r worldRow) string {
			return fmt.Sprintf("<!--[--><tr><!--$--><td><!-- -->%d<!----></td><td>%d<!--/--></td></tr><!--]-->", r.ID, r.RandomNumber)
		}), 12, true, nil, model.Pass},
		{"text split by a comment, a span in a cell", plainPage(rows, func(_ int, r worldRow) string {
			id := fmt.Sprint(r.ID)
			return fmt.Sprintf("<tr><td>%s<!-- -->%s</td><td><span>%d</span></td></tr>", id[:1], id[1:], r.RandomNumber)
		}), 12, false, nil, model.Pass},
		{"odd comments are left to the slow path", plainPage(rows, func(i int, r worldRow) string {
			return fmt.Sprintf("<tr><!--->--><td>%d</td><td>%d</td></tr>", r.ID, r.RandomNumber)
		}), 12, false, nil, model.Pass},
		{"omitted end tags", plainPage(rows, func(_ int, r worldRow) string {
			return fmt.Sprintf("<tr><td>%d<td>%d", r.ID, r.RandomNumber)
		}), 12, false, nil, model.Pass},
		{"a second table after the first is not read", append(plainPage(rows, nil), "<table><tr><td>x</td></tr></table>"...), 12, true, nil, model.Pass},
		{"too few rows", plainPage(rows[:10], nil), 12, false, []string{"10 rows, want 12 (page rules: one row per World id 1..N, N clamped to 1..10000)"}, model.Fail},
		{"too many rows", plainPage(rows, nil), 11, false, []string{"12 rows, want 11 (page rules: one row per World id 1..N, N clamped to 1..10000)"}, model.Fail},
		{"wrong value", plainPage(rows, func(i int, r worldRow) string {
			if i == 6 {
				r.RandomNumber = 12
			}
			return fmt.Sprintf("<tr><td>%d</td><td>%d</td></tr>", r.ID, r.RandomNumber)
		}), 12, false, []string{fmt.Sprintf(`row 7: randomNumber "12", want "%d" (World id 7)`, w[6])}, model.Fail},
		{"wrong id order", plainPage(swap, nil), 12, false, []string{`row 3: id "4", want "3"`, `row 4: id "3", want "4"`}, model.Fail},
		{"3 cells", plainPage(rows, func(i int, r worldRow) string {
			if i == 4 {
				return fmt.Sprintf("<tr><td>%d</td><td>%d</td><td>x</td></tr>", r.ID, r.RandomNumber)
			}
			return fmt.Sprintf("<tr><td>%d</td><td>%d</td></tr>", r.ID, r.RandomNumber)
		}), 12, false, []string{"row 5: 3 cells, want 2 (id, randomNumber)"}, model.Fail},
		{"no table", []byte("<!DOCTYPE html><html><body><div>1 4174</div><script>var t = '<table>'</script></body></html>"), 12, false,
			[]string{"no <table> element: the World rows go in the page's first <table> (page rules)"}, model.Fail},
		{"a table in a comment is none", []byte("<!-- <table><tr><td>1</td><td>2</td></tr></table> --><p>x</p>"), 1, false,
			[]string{"no <table> element: the World rows go in the page's first <table> (page rules)"}, model.Fail},
		{"a live script inside the table", []byte(strings.Replace(string(plainPage(rows, nil)), "<tbody>", "<tbody><script>alert(1)</script>", 1)), 12, false,
			[]string{"a live <script> element inside the table (page rules: the rows are text, never live markup)"}, model.Fail},
		{"a script after the table is fine", []byte(strings.Replace(string(plainPage(rows, nil)), "</table>", "</table><script>hydrate(\"</table>\")</script>", 1)), 12, true, nil, model.Pass},
		{"rows off by one, capped", plainPage(rows, func(_ int, r worldRow) string {
			return fmt.Sprintf("<tr><td>%d</td><td>%d</td></tr>", r.ID+1, r.RandomNumber)
		}), 12, false, []string{`row 1: id "2", want "1"`, `row 2: id "3", want "2"`, `row 3: id "4", want "3"`, "and 9 more rows wrong"}, model.Fail},
		{"beyond the World table", plainPage(append(slices.Clone(rows), worldRow{13, 5}), nil), 13, false,
			[]string{"row 13: World has no id 13 (the database copy has 12 rows)"}, model.Fail},
		{"empty body", nil, 1, false, []string{"empty body (page rules)"}, model.Fail},
	}
	for _, c := range cases {
		if got := pageFast(c.page, w, c.n); got != c.fast {
			t.Errorf("%s: pageFast %v, want %v", c.name, got, c.fast)
		}
		r := PageResponse(w, c.n, 200, pageHeader(), c.page)
		if r.Status != c.status || !slices.Equal(r.Reasons, c.reasons) {
			t.Errorf("%s: %s %q, want %s %q", c.name, r.Status, r.Reasons, c.status, c.reasons)
		}
		if r.PageBytes != len(c.page) {
			t.Errorf("%s: PageBytes %d, want %d", c.name, r.PageBytes, len(c.page))
		}
	}
}

// hexRefs writes every character of s as a hex character reference.
func hexRefs(s string) string {
	var b strings.Builder
	for _, c := range s {
		fmt.Fprintf(&b, "&#x%x;", c)
	}
	return b.String()
}

// TestPageRuleStatusAndHeaders: the status and headers follow fortunes'
// rules; the 10001 case's body problems are warns, its header ones fails.
func TestPageRuleStatusAndHeaders(t *testing.T) {
	w := testWorld(3)
	page := plainPage(worldRows(w, 3), nil)
	r := PageResponse(w, 3, 500, pageHeader(), page)
	if want := []string{"status 500, want 200 (TFB rules, every response)"}; r.Status != model.Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("500: %s %q, want fail %q", r.Status, r.Reasons, want)
	}
	h := pageHeader()
	h["Content-Type"] = []string{"text/html"}
	h["Content-Encoding"] = []string{"gzip"}
	r = PageResponse(w, 3, 200, h, page)
	want := []string{
		`Content-Type "text/html", want text/html; charset=utf-8 (charset required) (TFB rules, page)`,
		`Content-Encoding "gzip": the response is compressed (TFB rules, every response: no gzip)`,
	}
	if r.Status != model.Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("headers: %s %q, want fail %q", r.Status, r.Reasons, want)
	}
	r = pageResponse(w, 3, model.Warn, 200, pageHeader(), plainPage(worldRows(w, 2), nil))
	if want := []string{"2 rows, want 3 (page rules: one row per World id 1..N, N clamped to 1..10000)"}; r.Status != model.Warn || !slices.Equal(r.Reasons, want) {
		t.Errorf("capped: %s %q, want warn %q", r.Status, r.Reasons, want)
	}
	// Response without World checks ids and count only.
	wrong := plainPage(worldRows(testWorld(3), 3), func(_ int, r worldRow) string {
		return fmt.Sprintf("<tr><td>%d</td><td>%d</td></tr>", r.ID, r.RandomNumber+1)
	})
	if r := ResponseRows(model.Page, 3, 200, pageHeader(), wrong); r.Status != model.Pass || r.PageBytes != len(wrong) {
		t.Errorf("ResponseRows without World: %s %q, PageBytes %d", r.Status, r.Reasons, r.PageBytes)
	}
	if r := Response(model.Page, 200, pageHeader(), []byte("<table></table>")); r.Status != model.Fail ||
		!slices.Equal(r.Reasons, []string{"0 rows, want 1..10000 (page rules: one row per World id 1..N, N clamped to 1..10000)"}) {
		t.Errorf("Response, empty table: %s %q", r.Status, r.Reasons)
	}
}

// TestPageChecker applies the check the load generator runs.
func TestPageChecker(t *testing.T) {
	w := testWorld(20)
	check := PageChecker(w, 20)
	if err := check(200, rawHead(pageHeader()), refPageHTML(worldRows(w, 20))); err != nil {
		t.Errorf("correct page: %v", err)
	}
	stale := slices.Clone(w)
	stale[6]++
	err := check(200, rawHead(pageHeader()), refPageHTML(worldRows(stale, 19)))
	want := fmt.Sprintf(`19 rows, want 20 (page rules: one row per World id 1..N, N clamped to 1..10000); row 7: randomNumber "%d", want "%d" (World id 7)`, stale[6], w[6])
	if err == nil || err.Error() != want {
		t.Errorf("stale short page: %v, want %q", err, want)
	}
	if err := check(404, rawHead(pageHeader()), nil); err == nil || err.Error() != "status 404, want 200" {
		t.Errorf("404: %v", err)
	}
}

// TestExpectedPageRows: N clamped to 1..10000, non-numeric means 1.
func TestExpectedPageRows(t *testing.T) {
	for q, want := range map[string]int{"10": 10, "0": 1, "-3": 1, "foo": 1, "": 1, "10001": 10000, "99999999999999999999": 10000, " 7 ": 7} {
		if got := ExpectedPageRows(paramInt(q, 1)); got != want {
			t.Errorf("ExpectedPageRows(%q) = %d, want %d", q, got, want)
		}
	}
}

// TestFirstTableStart: the offset is just past the first real <table> tag,
// after a script and a comment holding "<table>".
func TestFirstTableStart(t *testing.T) {
	page := `<html><head><script>document.write("<table>")</script><!-- <table> --><style>td{}</style></head><body><p title="<table>">x</p><TABLE class="w">` + "<tr>"
	off, ok := firstTableStart([]byte(page))
	if !ok || page[off:] != "<tr>" {
		t.Errorf("offset %d %v: rest %q, want %q", off, ok, page[min(off, len(page)):], "<tr>")
	}
	if _, ok := firstTableStart([]byte("<p>no table</p>")); ok {
		t.Error("a page without a table has a table start")
	}
	if _, ok := firstTableStart([]byte("<table/><table><tr>")); ok {
		t.Error("<table/> is left to the slow path")
	}
}

// TestReadWorld reads the test dataset's World table and rejects a gap.
func TestReadWorld(t *testing.T) {
	path := copyDataset(t)
	w, err := ReadWorld(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	var sum int64
	if err := db.QueryRow("SELECT COUNT(*), SUM(randomNumber * id) FROM World").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	var got int64
	for i, v := range w {
		got += v * int64(i+1)
	}
	if len(w) != n || n != worldMax || got != sum {
		t.Errorf("World of %d rows, weighted sum %d; the table has %d rows, sum %d", len(w), got, n, sum)
	}
	if _, err := db.Exec("DELETE FROM World WHERE id = 5"); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadWorld(context.Background(), path); err == nil || err.Error() != "read World from "+path+": no row with id 5 (want ids 1..9999)" {
		t.Errorf("a gap: %v", err)
	}
	if _, err := ReadWorld(context.Background(), ""); err == nil || err.Error() != "no database path given (Target.DatabasePath)" {
		t.Errorf("no path: %v", err)
	}
}

// bigPage is a 10,000-row page as a React framework might send it: the
// table, then the rows again as a hydration payload.
func bigPage(w World) []byte {
	rows := worldRows(w, len(w))
	page := refPageHTML(rows)
	var payload strings.Builder
	payload.WriteString(`<script>self.__next_f.push([1,"`)
	for _, r := range rows {
		fmt.Fprintf(&payload, `{\"id\":%d,\"randomNumber\":%d},`, r.ID, r.RandomNumber)
	}
	payload.WriteString(`"])</script></body>`)
	return []byte(strings.Replace(string(page), "</body>", payload.String(), 1))
}

// BenchmarkPageCheck checks a 10,000-row page (about 1.4 MB) as the load
// generator does (PageChecker): the fast path.
func BenchmarkPageCheck(b *testing.B) {
	w := testWorld(worldMax)
	page := bigPage(w)
	check := PageChecker(w, worldMax)
	head := rawHead(pageHeader())
	if err := check(200, head, page); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		check(200, head, page)
	}
}

// BenchmarkPageCheckSlow is the slow path on the same page (a page the fast
// path is unsure of, e.g. comments in every cell, costs about this).
func BenchmarkPageCheckSlow(b *testing.B) {
	w := testWorld(worldMax)
	page := bigPage(w)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		pageTable(page)
	}
}
