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
	base, charsetRequired := contentTypeRule(t)
	if contentTypeOK(v, base, charsetRequired) {
		return
	}
	r.add(model.Fail, "Content-Type %q, want %s (TFB rules, %s)", v, contentTypeWant(base, charsetRequired), t)
}

// contentTypeRule returns test type t's Content-Type without parameters and
// whether its charset parameter is required.
func contentTypeRule(t model.TestType) (base string, charsetRequired bool) {
	switch t {
	case model.Plaintext:
		return "text/plain", false
	case model.Fortunes, model.Page, model.Stream:
		return "text/html", true
	}
	return "application/json", false
}

// contentTypeWant words a Content-Type rule for a reason.
func contentTypeWant(base string, charsetRequired bool) string {
	if charsetRequired {
		return base + "; charset=utf-8 (charset required)"
	}
	return base + " with optional ; charset=utf-8"
}

// contentTypeOK matches v as TFB's regular expression does:
// ^base(; ?charset=(UTF|utf)-8)?$, the charset part required when
// charsetRequired. The match is case-sensitive, as TFB's is. It does not
// allocate (v a header value as a string, or raw bytes under load).
func contentTypeOK[S string | []byte](v S, base string, charsetRequired bool) bool {
	if len(v) < len(base) || string(v[:len(base)]) != base {
		return false
	}
	rest := v[len(base):]
	if len(rest) == 0 {
		return !charsetRequired
	}
	if rest[0] != ';' {
		return false
	}
	rest = rest[1:]
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	return string(rest) == "charset=utf-8" || string(rest) == "charset=UTF-8"
}
