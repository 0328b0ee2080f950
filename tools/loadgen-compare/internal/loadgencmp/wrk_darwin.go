package loadgencmp

// WrkInstall is how to get wrk on this OS, for the message when it is
// missing: on macOS, Homebrew's wrk formula, the yardstick on a Mac.
const WrkInstall = "`brew install wrk` (Homebrew)"
