package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/verify"
)

func TestLoadCommand(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", "t")
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Accept") != "application/json,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7" {
			w.WriteHeader(400)
			return
		}
		w.Write([]byte(`{"message":"Goodbye"}`))
	}))
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), []string{"load", srv.URL + "/json", "-c", "2", "-d", "300ms", "--type", "json", "--json"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var s model.Sample
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatalf("%v in %s", err, stdout.String())
	}
	if s.Responses == 0 || s.Success != s.Responses || s.Connections != 2 || s.Engine != "raw" || s.RPS <= 0 {
		t.Errorf("sample %+v", s)
	}
	// Every response is checked, and the body is wrong (so is the reference
	// fetched first: the full rule decides).
	want := `check GET /json: response 1 on its connection: message "Goodbye", want "Hello, World!" (TFB rules, json)`
	if s.Checked != s.Responses || s.Errors["check"] != s.Checked || s.Examples["check"] != want {
		t.Errorf("checked %d of %d, check errors %d, example %q; want all checked and failed, %q", s.Checked, s.Responses, s.Errors["check"], s.Examples["check"], want)
	}

	stdout.Reset()
	if code := cli(context.Background(), []string{"load", "-d", "200ms", "-c", "1", srv.URL + "/x"}, &stdout, &stderr); code != 0 {
		t.Fatalf("text mode: exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "GET "+srv.URL+"/x\n  engine raw, 1 connections, pipeline depth 1") || !strings.Contains(stdout.String(), "errors      status ") {
		t.Errorf("text summary:\n%s", stdout.String())
	}

	stdout.Reset()
	if code := cli(context.Background(), []string{"load", "-d", "300ms", "-c", "1", srv.URL + "/json", "--probe", "/p", "--probe-interval", "50ms"}, &stdout, &stderr); code != 0 {
		t.Fatalf("probe: exit %d: %s", code, stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "\n  TTFB        p50 ") || !strings.Contains(out, "\n  probe       GET /p every 50 ms: ") {
		t.Errorf("summary with a probe:\n%s", out)
	}
}

// With --world, db rows are checked against the World table: a right id with
// a randomNumber in range but not World's fails.
func TestLoadCommandWorld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dataset.db")
	if _, err := dataset.Ensure(path); err != nil {
		t.Fatal(err)
	}
	world, err := verify.ReadWorld(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	wrong := world[6]%10000 + 1 // World[id-1] is row id's
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", "t")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":7,"randomNumber":%d}`, wrong)
	}))
	defer srv.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""}, // in range: passes without World
		{[]string{"--world", path}, fmt.Sprintf("check GET /db: response 1 on its connection: id 7 randomNumber %d, want %d (World)", wrong, world[6])},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"load", srv.URL + "/db", "-c", "1", "-d", "200ms", "--type", "db", "--json"}, c.args...)
		if code := cli(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		var s model.Sample
		if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
			t.Fatalf("%v in %s", err, stdout.String())
		}
		if s.Responses == 0 || s.Checked != s.Responses || s.Examples["check"] != c.want || (c.want != "") != (s.Errors["check"] == s.Checked) {
			t.Errorf("%v: %d responses, %d checked, %d failed, example %q; want all checked, %q", c.args, s.Responses, s.Checked, s.Errors["check"], s.Examples["check"], c.want)
		}
	}
}

func TestLoadCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"load"}, 2, "a URL is required"},
		{[]string{"load", "ftp://x/"}, 1, "the scheme must be http or https"},
		{[]string{"load", "http://127.0.0.1:1/", "--type", "jsn"}, 1, `--type "jsn"`},
		{[]string{"load", "https://127.0.0.1:1/", "--engine", "raw"}, 1, "https"},
		{[]string{"load", "http://127.0.0.1:1/", "--engine", "hey", "--probe", "/plaintext"}, 1, "Probe is set, want nil: hey runs no interference probe (engine hey)"},
		{[]string{"load", "http://127.0.0.1:1/", "--probe", "plaintext"}, 1, `Probe.Path "plaintext" does not start with /`},
		{[]string{"load", "http://127.0.0.1:1/db", "--type", "db", "--world", "/nonexistent/w.db"}, 1, "--world: database /nonexistent/w.db: "},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := cli(context.Background(), c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}
