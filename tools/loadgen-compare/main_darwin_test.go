package main

// wantNoWrk is the exact message for a missing wrk on macOS: Homebrew's
// formula.
const wantNoWrk = "wrk not found: install it with `brew install wrk` (Homebrew)\n"
