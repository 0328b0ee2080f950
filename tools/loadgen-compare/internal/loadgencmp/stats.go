package loadgencmp

import (
	"slices"

	"github.com/montanaflynn/stats"
)

// Summary is a set of per-round figures reduced to its median and range,
// in the figures' unit.
type Summary struct {
	Median, Min, Max float64
	N                int // how many figures
}

// Summarize returns xs' median (the mean of the middle two for an even
// count), minimum and maximum. An empty xs gives the zero Summary.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	med, _ := stats.Median(xs) // only fails on empty input
	return Summary{Median: med, Min: slices.Min(xs), Max: slices.Max(xs), N: len(xs)}
}
