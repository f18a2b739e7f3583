#ifndef TERMMAP_CPTY_H
#define TERMMAP_CPTY_H
// A pseudo-terminal of a given size for the benchmark (Swift cannot call the variadic ioctl).
// Returns 0 and the two descriptors, or -1.
int termmap_open_pty(int cols, int rows, int *master, int *slave);
// Waits up to timeout_ms for the descriptor to become readable: 1 readable, 0 timeout, -1 error.
int termmap_wait_readable(int fd, int timeout_ms);
#endif
