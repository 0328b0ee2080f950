package runtime

import (
	"strings"
	"testing"

	v8 "github.com/tommie/v8go"
)

// TestV8Links proves the prebuilt V8 links on this machine (the glibc and
// libstdc++ forwarding files) and runs JavaScript.
func TestV8Links(t *testing.T) {
	if v := v8.Version(); !strings.HasPrefix(v, "13.6.") {
		t.Errorf("V8 version %q, want 13.6.x (tommie/v8go v0.34.0)", v)
	}
	iso := v8.NewIsolate()
	defer iso.Dispose()
	ctx := v8.NewContext(iso)
	defer ctx.Close()
	val, err := ctx.RunScript(`[1, 2, 3].map(x => x * 7).join("+")`, "t.js")
	if err != nil {
		t.Fatal(err)
	}
	if got := val.String(); got != "7+14+21" {
		t.Errorf("script = %q, want 7+14+21", got)
	}
}
