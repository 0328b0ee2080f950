package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
)

// maxParts and defaultParts bound the stream page's parts parameter
// (tfbench stream contract, docs/ssr.md "The streamed page").
const (
	maxParts     = 16
	defaultParts = 4
)

// streamShell is the stream page's shell: the layout, the heading and a
// fallback per part, flushed before any part's data is read.
var streamShell = template.Must(template.New("shell").Parse(
	`<!DOCTYPE html><html><head><meta charset="utf-8"><title>World</title></head><body><h1>World rows</h1>` +
		`{{range .}}<div class="slot" id="slot-{{.}}"><p class="fallback">Loading part {{.}}</p></div>{{end}}`))

// streamPart is one part's table, the /ssr page's row markup.
var streamPart = template.Must(template.New("part").Parse(
	`<table class="part" data-part="{{.K}}"><tbody>` +
		`{{range .Rows}}<tr class="row" data-id="{{.ID}}"><td class="id">{{.ID}}</td><td class="num">{{.RandomNumber}}</td></tr>{{end}}` +
		`</tbody></table>`))

// streamParts reads the parts parameter: 1..16, a missing or non-numeric
// value means 4, and never more parts than rows.
func streamParts(r *http.Request, rows int) int {
	k, err := strconv.Atoi(r.URL.Query().Get("parts"))
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		k = defaultParts
	}
	return max(1, min(k, maxParts, rows))
}

// stream: tfbench's streamed page. The shell is written and flushed first;
// then each part k (World ids k*N/K+1 .. (k+1)*N/K) is read by its own query,
// after the previous part was sent, rendered and flushed (http.Flusher
// through the ResponseController), so the client sees K+1 flushes. A read
// that fails mid-page aborts the response (the client sees it cut).
func (a *app) stream(w http.ResponseWriter, r *http.Request) {
	n := pageRows(r)
	k := streamParts(r, n)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	rc := http.NewResponseController(w)
	var buf bytes.Buffer
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	if err := streamShell.Execute(&buf, idx); err != nil {
		a.fail(w, r, err)
		return
	}
	send := func() {
		if _, err := w.Write(buf.Bytes()); err != nil {
			panic(http.ErrAbortHandler) // the client went away
		}
		if err := rc.Flush(); err != nil {
			panic(http.ErrAbortHandler)
		}
		buf.Reset()
	}
	send()
	for p := range k {
		lo, hi := p*n/k+1, (p+1)*n/k
		rows, err := a.loadWorldBetween(r.Context(), lo, hi)
		if err == nil {
			err = streamPart.Execute(&buf, struct {
				K    int
				Rows []world
			}{p, rows})
		}
		if err != nil {
			a.logf("%s %s: part %d: %v", r.Method, r.URL, p, err)
			panic(http.ErrAbortHandler)
		}
		if p == k-1 {
			buf.WriteString(`</body></html>`)
		}
		send()
	}
}

// loadWorldBetween reads World ids lo..hi in id order with one query,
// inside one pass through the read gate.
func (a *app) loadWorldBetween(ctx context.Context, lo, hi int) ([]world, error) {
	if err := a.readGate.enter(ctx); err != nil {
		return nil, fmt.Errorf("wait for a read connection: %w", err)
	}
	defer a.readGate.leave()
	rs, err := a.selectBetween.QueryContext(dbContext(ctx), lo, hi)
	if err != nil {
		return nil, fmt.Errorf("World ids %d..%d: %w", lo, hi, err)
	}
	defer rs.Close()
	rows := make([]world, 0, hi-lo+1)
	for rs.Next() {
		var wr world
		if err := rs.Scan(&wr.ID, &wr.RandomNumber); err != nil {
			return nil, fmt.Errorf("World row: %w", err)
		}
		rows = append(rows, wr)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("World rows: %w", err)
	}
	return rows, nil
}
