package verify

import (
	"bytes"
	htmltemplate "html/template"
	"strconv"
)

// refPageTemplate renders the page the way a framework does: a document
// with a head, a hydration script before and a JSON payload after the table,
// each row through a Row component with attributes (the page contract's
// suggested markup), indented.
var refPageTemplate = htmltemplate.Must(htmltemplate.New("p").Parse(`<!DOCTYPE html>
<html>
  <head><meta charset="utf-8"><title>World</title><script>window.__x = "<table><tr><td>1</td></tr></table>";</script></head>
  <body>
    <div id="root"><h1>World rows</h1>
    <table>
      <thead><tr><th>id</th><th>randomNumber</th></tr></thead>
      <tbody>
      {{range .}}<tr class="row" data-id="{{.ID}}"><td class="id">{{.ID}}</td><td class="num">{{.RandomNumber}}</td></tr>
      {{end}}</tbody>
    </table></div>
    <script id="__DATA__" type="application/json">{"rows":{{len .}}}</script>
  </body>
</html>
`))

// refPageHTML renders rows with refPageTemplate.
func refPageHTML(rows []worldRow) []byte {
	var b bytes.Buffer
	if err := refPageTemplate.Execute(&b, rows); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ssrPage reads World rows 1..N (N the rows value q clamped to 1..10000,
// else 1) in one query and renders them (or serves the cached page, or the
// opts' page).
func (s *refServer) ssrPage(q string) ([]byte, error) {
	n, err := strconv.Atoi(q)
	if err != nil || n < 1 {
		n = 1
	}
	n = min(n, 10000)
	if s.opts.pageRows != nil {
		n = s.opts.pageRows(q, n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.pages[n]; ok && s.opts.cachePage {
		return p, nil
	}
	rs, err := s.db.Query("SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id", n)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var rows []worldRow
	for rs.Next() {
		var w worldRow
		if err := rs.Scan(&w.ID, &w.RandomNumber); err != nil {
			return nil, err
		}
		rows = append(rows, w)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	render := refPageHTML
	if s.opts.page != nil {
		render = s.opts.page
	}
	p := render(rows)
	if s.pages == nil {
		s.pages = map[int][]byte{}
	}
	s.pages[n] = p
	return p, nil
}
