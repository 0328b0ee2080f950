package verify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

func TestFetchSendsVerificationHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(201)
		w.Write([]byte(r.URL.RequestURI() + "|" + r.Header.Get("Accept") + "|" + r.Header.Get("User-Agent") + "|" + r.Header.Get("Accept-Encoding")))
	}))
	defer srv.Close()
	status, body, err := Fetch(context.Background(), srv.URL, model.Page, "/ssr?rows=10", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "/ssr?rows=10|" + model.Page.Accept() + "|" + suite.UserAgent + "|"
	if status != 201 || string(body) != want {
		t.Errorf("status %d body %q, want %q", status, body, want)
	}
	srv.Close()
	if _, _, err := Fetch(context.Background(), srv.URL, model.JSON, "/json", 0); err == nil || !strings.Contains(err.Error(), `Get "`+srv.URL+`/json"`) {
		t.Errorf("closed server: %v", err)
	}
}
