package main

// wantNoWrk is the exact message for a missing wrk on Linux: Debian's
// package.
const wantNoWrk = "wrk not found: install it with `apt-get install -y wrk` (Debian/Ubuntu)\n"
