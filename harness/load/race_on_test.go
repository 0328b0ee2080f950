//go:build race

package load

// raceEnabled: this test binary runs under the race detector (go tool
// task test:race), which slows the generator several-fold.
const raceEnabled = true
