//go:build race

package verify

// raceEnabled: this test binary runs under the race detector (go tool
// task test:race), which slows every request several-fold.
const raceEnabled = true
