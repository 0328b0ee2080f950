package load

import (
	"maps"
	"testing"
	"time"
)

func TestResultRPSAndSocketErrors(t *testing.T) {
	r := &Result{Window: 2 * time.Second, Responses: 501,
		Errors: map[Class]int64{Connect: 1, Read: 2, Write: 3, Timeout: 4, Status: 50}}
	if got := r.RPS(); got != 250.5 {
		t.Errorf("RPS %v, want 250.5", got)
	}
	if got := r.SocketErrors(); got != 10 {
		t.Errorf("SocketErrors %d, want 10 (status errors excluded)", got)
	}
	if got := (&Result{Responses: 5}).RPS(); got != 0 {
		t.Errorf("RPS of an empty window %v, want 0", got)
	}
}

func TestResultMerge(t *testing.T) {
	t0 := time.Unix(100, 0)
	a, b := &tally{connects: 1}, &tally{connects: 2}
	for range 3 {
		a.responses++
		a.status(200)
	}
	a.responses++
	a.status(503)
	a.fail(Status, t0.Add(2*time.Second), func() string { return "status 503 for GET /db" })
	a.fail(Read, t0.Add(time.Second), func() string { return "read a: late" })
	b.responses++
	b.status(404)
	b.fail(Status, t0.Add(time.Second), func() string { return "status 404 for GET /db" })
	b.fail(Read, t0.Add(3*time.Second), func() string { return "read b: later" })
	b.fail(Read, t0, func() string { t.Error("message built for a second error of a class"); return "" })
	a.bodyBytes, b.bodyBytes = 40, 2

	var r Result
	r.merge([]*tally{a, b})
	if r.Responses != 5 || r.Success != 3 || r.BodyBytes != 42 || r.Connects != 3 {
		t.Errorf("Responses %d, Success %d, BodyBytes %d, Connects %d; want 5, 3, 42, 3", r.Responses, r.Success, r.BodyBytes, r.Connects)
	}
	if want := map[int]int64{200: 3, 503: 1, 404: 1}; !maps.Equal(r.StatusCounts, want) {
		t.Errorf("StatusCounts %v, want %v", r.StatusCounts, want)
	}
	if want := map[Class]int64{Status: 2, Read: 3}; !maps.Equal(r.Errors, want) {
		t.Errorf("Errors %v, want %v", r.Errors, want)
	}
	// The earliest example of each class wins, whichever connection saw it.
	if want := map[Class]string{Status: "status 404 for GET /db", Read: "read a: late"}; !maps.Equal(r.Examples, want) {
		t.Errorf("Examples %v, want %v", r.Examples, want)
	}
}
