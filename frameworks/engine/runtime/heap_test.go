package runtime

import (
	"context"
	"io"
	"log"
	"testing"
)

// TestUsedHeap: two isolates' used heap is above each one's bundle (a few
// hundred kB at least) and stays readable between renders; a closed pool
// reads 0 instead of waiting for isolates that are gone.
func TestUsedHeap(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 2, Log: log.New(io.Discard, "", 0)})
	before := p.UsedHeap()
	if before < 2*100<<10 {
		t.Errorf("UsedHeap = %d bytes for 2 isolates, want 200 KiB at least", before)
	}
	for range 100 {
		if _, err := p.Render(context.Background(), rFortunes, get(p.Routes()[rFortunes].Path, nil)); err != nil {
			t.Fatal(err)
		}
	}
	if after := p.UsedHeap(); after <= 0 {
		t.Errorf("UsedHeap after 100 renders = %d, want > 0", after)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if got := p.UsedHeap(); got != 0 {
		t.Errorf("UsedHeap after Close = %d, want 0", got)
	}
}
