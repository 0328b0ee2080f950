package eventloop

// sunPath is the longest Unix socket path darwin accepts (sun_path holds
// 104 bytes with the terminating NUL; a longer one is EINVAL).
const sunPath = 103
