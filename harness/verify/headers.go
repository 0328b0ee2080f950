package verify

import (
	"net/http"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// checkHeaders applies the header rules of every response (TFB rules, every
// response): Server, Date, Content-Type and a length present, Date in RFC
// 7231 form (else warn), t's Content-Type, no Content-Encoding.
func checkHeaders(r *Result, t model.TestType, h http.Header) {
	for _, key := range [...]string{"Server", "Date", "Content-Type"} {
		if len(h[key]) == 0 {
			r.add(model.Fail, "no %s header (TFB rules, every response: Server, Date and Content-Type are required)", key)
		}
	}
	if len(h["Content-Length"]) == 0 && len(h["Transfer-Encoding"]) == 0 {
		r.add(model.Fail, "neither Content-Length nor Transfer-Encoding header (TFB rules, every response: one of them is required)")
	}
	if d := h["Date"]; len(d) > 0 && !validDate(d[0]) {
		r.add(model.Warn, "Date %q is not in RFC 7231 form %q (TFB rules, every response)", d[0], http.TimeFormat)
	}
	if ct := h["Content-Type"]; len(ct) > 0 {
		checkContentType(r, t, joinValues(ct))
	}
	if ce := h["Content-Encoding"]; len(ce) > 0 {
		r.add(model.Fail, "Content-Encoding %q: the response is compressed (TFB rules, every response: no gzip)", joinValues(ce))
	}
}

// validDate reports whether v is an RFC 7231 IMF-fixdate such as
// "Mon, 02 Jan 2006 15:04:05 GMT" (http.TimeFormat).
func validDate(v string) bool {
	_, err := time.Parse(http.TimeFormat, v)
	return err == nil
}

// joinValues joins repeated header values with ", ", as TFB's HTTP client
// (Python requests) presents them; one value is returned without copying.
func joinValues(v []string) string {
	if len(v) == 1 {
		return v[0]
	}
	return strings.Join(v, ", ")
}

// checkContentType applies test type t's Content-Type rule: application/json
// or text/plain with an optional charset, text/html (fortunes, page) with
// the charset required.
func checkContentType(r *Result, t model.TestType, v string) {
	var base string
	var charsetRequired bool
	switch t {
	case model.Plaintext:
		base = "text/plain"
	case model.Fortunes, model.Page:
		base, charsetRequired = "text/html", true
	default:
		base = "application/json"
	}
	if contentTypeOK(v, base, charsetRequired) {
		return
	}
	want := base + " with optional ; charset=utf-8"
	if charsetRequired {
		want = base + "; charset=utf-8 (charset required)"
	}
	r.add(model.Fail, "Content-Type %q, want %s (TFB rules, %s)", v, want, t)
}

// contentTypeOK matches v as TFB's regular expression does:
// ^base(; ?charset=(UTF|utf)-8)?$, the charset part required when
// charsetRequired. The match is case-sensitive, as TFB's is.
func contentTypeOK(v, base string, charsetRequired bool) bool {
	rest, ok := strings.CutPrefix(v, base)
	if !ok {
		return false
	}
	if rest == "" {
		return !charsetRequired
	}
	rest, ok = strings.CutPrefix(rest, ";")
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(rest, " ")
	return rest == "charset=utf-8" || rest == "charset=UTF-8"
}
