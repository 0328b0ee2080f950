package texttab

import (
	"fmt"
	"math"

	"github.com/dustin/go-humanize"
)

// Thousands formats a rate (requests/s) or count as a whole number with
// comma separators: 56683.4 → "56,683".
func Thousands(v float64) string { return humanize.Comma(int64(math.Round(v))) }

// RPS writes a rate in requests/s: whole requests/s from 100 up
// ("1,974"), one decimal below ("12.5"), so slow pages keep their figure.
func RPS(v float64) string {
	if v >= 100 {
		return Thousands(v)
	}
	return fmt.Sprintf("%.1f", v)
}
