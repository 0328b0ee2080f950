package load

import "testing"

func TestEngineFor(t *testing.T) {
	for _, name := range []string{"", "raw"} {
		e, err := EngineFor(name)
		if err != nil || e.Name() != "raw" {
			t.Errorf("EngineFor(%q) = %v, %v; want engine raw", name, e, err)
		}
	}
	if _, err := EngineFor("wrk"); err == nil || err.Error() != `load: unknown engine "wrk" (known: raw, hey)` {
		t.Errorf("EngineFor(wrk): error %v", err)
	}
}
