package verify

import (
	"net/http"
	"slices"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

func TestContentTypeOK(t *testing.T) {
	cases := []struct {
		v, base  string
		required bool
		want     bool
	}{
		{"application/json", "application/json", false, true},
		{"application/json; charset=utf-8", "application/json", false, true},
		{"application/json;charset=utf-8", "application/json", false, true},
		{"application/json; charset=UTF-8", "application/json", false, true},
		{"application/json;  charset=utf-8", "application/json", false, false}, // TFB allows one space only
		{"application/json; charset=Utf-8", "application/json", false, false},
		{"application/json; charset=utf8", "application/json", false, false},
		{"application/json;", "application/json", false, false},
		{"application/json; charset=utf-8; x=1", "application/json", false, false},
		{"Application/JSON", "application/json", false, false}, // TFB matches case-sensitively
		{"application/jsonp", "application/json", false, false},
		{"text/plain", "text/plain", false, true},
		{"text/plain; charset=utf-8", "text/plain", false, true},
		{"text/html", "text/html", true, false},
		{"text/html; charset=utf-8", "text/html", true, true},
		{"text/html;charset=UTF-8", "text/html", true, true},
		{"text/html; charset=iso-8859-1", "text/html", true, false},
	}
	for _, c := range cases {
		if got := contentTypeOK(c.v, c.base, c.required); got != c.want {
			t.Errorf("contentTypeOK(%q, %q, %v) = %v, want %v", c.v, c.base, c.required, got, c.want)
		}
	}
}

func TestValidDate(t *testing.T) {
	cases := map[string]bool{
		"Tue, 04 Mar 2025 05:06:07 GMT":   true,
		"Tue, 4 Mar 2025 05:06:07 GMT":    false,
		"Tue, 04 Mar 2025 05:06:07 UTC":   false,
		"Tuesday, 04-Mar-25 05:06:07 GMT": false, // RFC 850
		"Tue Mar  4 05:06:07 2025":        false, // asctime
		"2025-03-04T05:06:07Z":            false,
		"":                                false,
	}
	for v, want := range cases {
		if got := validDate(v); got != want {
			t.Errorf("validDate(%q) = %v, want %v", v, got, want)
		}
	}
}

// goodHeader is a header set that meets every header rule for json.
func goodHeader() http.Header {
	return http.Header{
		"Server":         {"x"},
		"Date":           {"Tue, 04 Mar 2025 05:06:07 GMT"},
		"Content-Type":   {"application/json"},
		"Content-Length": {"27"},
	}
}

func TestCheckHeaders(t *testing.T) {
	cases := []struct {
		name    string
		change  func(h http.Header)
		want    model.Verdict
		reasons []string
	}{
		{"all present", func(http.Header) {}, model.Pass, nil},
		{"Transfer-Encoding instead of Content-Length", func(h http.Header) {
			delete(h, "Content-Length")
			h["Transfer-Encoding"] = []string{"chunked"}
		}, model.Pass, nil},
		{"empty Server value still present", func(h http.Header) { h["Server"] = []string{""} }, model.Pass, nil},
		{"no Server", func(h http.Header) { delete(h, "Server") }, model.Fail,
			[]string{"no Server header (TFB rules, every response: Server, Date and Content-Type are required)"}},
		{"no length", func(h http.Header) { delete(h, "Content-Length") }, model.Fail,
			[]string{"neither Content-Length nor Transfer-Encoding header (TFB rules, every response: one of them is required)"}},
		{"two Content-Types", func(h http.Header) { h["Content-Type"] = []string{"application/json", "application/json"} }, model.Fail,
			[]string{`Content-Type "application/json, application/json", want application/json with optional ; charset=utf-8 (TFB rules, json)`}},
		{"Content-Encoding br", func(h http.Header) { h["Content-Encoding"] = []string{"br"} }, model.Fail,
			[]string{`Content-Encoding "br": the response is compressed (TFB rules, every response: no gzip)`}},
		{"asctime Date", func(h http.Header) { h["Date"] = []string{"Tue Mar  4 05:06:07 2025"} }, model.Warn,
			[]string{`Date "Tue Mar  4 05:06:07 2025" is not in RFC 7231 form "Mon, 02 Jan 2006 15:04:05 GMT" (TFB rules, every response)`}},
	}
	for _, c := range cases {
		h := goodHeader()
		c.change(h)
		r := pass()
		checkHeaders(&r, model.JSON, h)
		if r.Status != c.want || !slices.Equal(r.Reasons, c.reasons) {
			t.Errorf("%s: %s %q, want %s %q", c.name, r.Status, r.Reasons, c.want, c.reasons)
		}
	}
}
