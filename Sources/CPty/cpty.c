#define _GNU_SOURCE
#include "cpty.h"
#include <pty.h>
#include <poll.h>
#include <sys/ioctl.h>

int termmap_open_pty(int cols, int rows, int *master, int *slave) {
    struct winsize ws = {0};
    ws.ws_col = (unsigned short)cols;
    ws.ws_row = (unsigned short)rows;
    return openpty(master, slave, 0, 0, &ws);
}

int termmap_wait_readable(int fd, int timeout_ms) {
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, timeout_ms);
}
