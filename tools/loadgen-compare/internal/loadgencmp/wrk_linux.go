package loadgencmp

// WrkInstall is how to get wrk on this OS, for the message when it is
// missing: on Linux, Debian's and Ubuntu's wrk package.
const WrkInstall = "`apt-get install -y wrk` (Debian/Ubuntu)"
