package verify

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

func TestChecker(t *testing.T) {
	h := rawHead(http.Header{
		"Server": {"x"}, "Date": {"Sun, 29 Nov 2026 19:00:00 GMT"},
		"Content-Type": {"application/json"}, "Content-Length": {"27"},
	})
	check := Checker(model.JSON, 0)
	if err := check(200, h, []byte(`{"message":"Hello, World!"}`)); err != nil {
		t.Errorf("correct response: %v", err)
	}
	if err := check(200, h, []byte(`{"message":"Hello, World!","x":1}`)); err != nil {
		t.Errorf("a warn (extra key) must pass under load: %v", err)
	}
	err := check(200, h, []byte(`{"message":"Goodbye"}`))
	if err == nil || !strings.Contains(err.Error(), "Hello, World!") {
		t.Errorf("wrong message: %v", err)
	}
	rows := Checker(model.Queries, 2)
	body := []byte(`[{"id":1,"randomNumber":2}]`)
	if err := rows(200, h, body); err == nil || !strings.Contains(err.Error(), "1 rows, want 2") {
		t.Errorf("one row for N=2: %v", err)
	}
}
