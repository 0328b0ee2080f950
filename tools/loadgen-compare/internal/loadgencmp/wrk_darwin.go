package loadgencmp

// WrkInstall is how to get wrk on this OS, for the message when it is
// missing: on macOS, Homebrew's wrk formula (issue 17's yardstick there).
const WrkInstall = "`brew install wrk` (Homebrew)"
