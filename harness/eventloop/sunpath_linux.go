package eventloop

// sunPath is the longest Unix socket path Linux accepts (sun_path holds
// 108 bytes with the terminating NUL).
const sunPath = 107
