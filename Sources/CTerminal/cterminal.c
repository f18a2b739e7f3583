#include "cterminal.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <pthread.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>


WINDOW *termmap_stdscr(void) { return stdscr; }
int termmap_terminal_colors(void) {
    if (!has_colors()) return 0;
    int n = tigetnum("colors");
    return n > 0 ? n : 0;
}
int termmap_has_string(const char *name) {
    const char *s = tigetstr(name);
    return s != NULL && s != (char *)-1;
}
int termmap_has_flag(const char *name) { return tigetflag(name) > 0; }
int termmap_cursor_addressing_is_ansi(void) {
    const char *cup = tigetstr("cup");
    if (cup == NULL || cup == (char *)-1) return 0;
    const char *moved = tiparm(cup, 4, 9);
    // Padding (the VT100's "$<5>") may follow: it is not sent.
    return moved != NULL && strncmp(moved, "\033[5;10H", 7) == 0 && (moved[7] == 0 || moved[7] == '$');
}

// No BUTTON1_CLICKED: asked for clicks, ncurses holds a release back (waiting to make it a click)
// until more input comes, and an animation started by the press stops on screen until then.
// Presses, releases and motion (for dragging) are reported as they come; termmap makes clicks itself.
int termmap_key_code(const char *name) {
    char *sequence = tigetstr((char *)name);
    if (sequence == NULL || sequence == (char *)-1) return -1;
    int code = key_defined(sequence);
    return code > 0 ? code : -1;
}

mmask_t termmap_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED | REPORT_MOUSE_POSITION;
}
int termmap_is_press(mmask_t s) { return (s & BUTTON1_PRESSED) != 0; }
int termmap_is_release(mmask_t s) { return (s & BUTTON1_RELEASED) != 0; }
int termmap_is_motion(mmask_t s) { return (s & REPORT_MOUSE_POSITION) != 0; }
int termmap_is_wheel_up(mmask_t s) { return (s & BUTTON4_PRESSED) != 0; }
int termmap_is_wheel_down(mmask_t s) { return (s & BUTTON5_PRESSED) != 0; }

// One flag for the whole program: the handler only records which signal arrived.
static volatile sig_atomic_t pending_signal = 0;
static void record_signal(int sig) { pending_signal = sig; }
static volatile sig_atomic_t pending_stop = 0;
static void record_stop(int sig) { (void)sig; __atomic_store_n(&pending_stop, 1, __ATOMIC_SEQ_CST); }

void termmap_install_signal_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = record_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, 0);
    sigaction(SIGHUP, &sa, 0);
    sigaction(SIGINT, &sa, 0);
    sigaction(SIGQUIT, &sa, 0);
    signal(SIGPIPE, SIG_IGN);
    // In place of ncurses' own SIGTSTP handler, which would redraw its copy of the screen, not ours.
    sa.sa_handler = record_stop;
    sigaction(SIGTSTP, &sa, 0);
}

// For a command that stops cleanly (data get keeps the tiles in flight): SIGINT, SIGTERM and SIGHUP
// are recorded once; the handler is then reset (SA_RESETHAND), so a second Ctrl-C ends the program.
void termmap_install_interrupt_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = record_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, 0);
    sigaction(SIGHUP, &sa, 0);
    sigaction(SIGINT, &sa, 0);
}

int termmap_take_stop_request(void) { return __atomic_exchange_n(&pending_stop, 0, __ATOMIC_SEQ_CST); }

// The parent of `pid` from /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold spaces and
// parentheses: the last ')' ends it), or -1.
static pid_t parent_of(pid_t pid) {
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f) return -1;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char *close = strrchr(text, ')');
    int ppid = -1;
    if (!close || sscanf(close + 1, " %*c %d", &ppid) != 1) return -1;
    return (pid_t)ppid;
}

int termmap_job_control(void) {
    pid_t group = getpgrp(), session = getsid(0);
    if (group == session || tcgetpgrp(STDIN_FILENO) != group) return 0;
    pid_t p = getppid();
    for (int depth = 0; depth < 64 && p > 1; depth++) {
        pid_t theirs = getpgid(p);
        if (theirs < 0) return 0;
        if (theirs != group) return getsid(p) == session;
        p = parent_of(p);
    }
    return 0;
}

void termmap_stop_self(void) {
    struct sigaction dfl, ours;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &ours);
    sigset_t tstp, before;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &tstp, &before);
    // The whole group, as the terminal's Ctrl-Z would: a shell waits for the job, not for one process.
    kill(0, SIGTSTP);
    // Here once continued. A stop asked before it (a SIGTSTP recorded meanwhile) is done; one that
    // comes from here on is recorded by the handler again.
    __atomic_store_n(&pending_stop, 0, __ATOMIC_SEQ_CST);
    pthread_sigmask(SIG_SETMASK, &before, 0);
    sigaction(SIGTSTP, &ours, 0);
}

int termmap_take_signal(void) {
    int s = pending_signal;
    pending_signal = 0;
    return s;
}

SCREEN *termmap_newterm(const char *term) { return newterm(term, stdout, stdin); }

void termmap_refresh_cleared(void) {
    clearok(curscr, TRUE);
    wnoutrefresh(stdscr);
    doupdate();
}

int termmap_locale_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0 || strcmp(cs, "UTF8") == 0);
}

int termmap_stdin_hung_up(void) {
    struct pollfd p = {0, POLLIN, 0};
    if (poll(&p, 1, 0) < 0) return 0;
    return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

// MARK: Recording (--record): ncurses writes to a pseudo-terminal; a thread copies what comes out of it
// to the real terminal and, as asciicast v2 events, to the recording. Device attributes queries
// (ESC [ c) go to the terminal in order but not into the recording.

static struct {
    int master, slave, cast;
    int real_out;  // the terminal, while stdout's descriptor is the pseudo-terminal
    struct termios saved;
    int saved_ok;
    struct timespec start;
    pthread_t thread;
    int running;
    int stopping;  // set before the last byte, a NUL, is written: the copy ends when it reads it
} rec = {-1, -1, -1, -1, {0}, 0, {0, 0}, 0, 0, 0};

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;  // a terminal that has gone: the recording goes on
        p += w;
        n -= (size_t)w;
    }
}

// The bytes of a UTF-8 sequence its lead byte starts (1 for anything else).
static size_t utf8_length(unsigned char b) {
    if (b >= 0xF0 && b < 0xF8) return 4;
    if (b >= 0xE0) return 3;
    if (b >= 0xC0) return 2;
    return 1;
}

// One event line: [seconds, "o", "data"], JSON-escaped; written at once, so that a recording cut off
// by a dropped connection ends on a whole line.
static void write_event(const unsigned char *data, size_t n) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = (double)(now.tv_sec - rec.start.tv_sec) + (double)(now.tv_nsec - rec.start.tv_nsec) / 1e9;
    size_t room = n * 6 + 64;
    char *line = malloc(room);
    if (line == NULL) return;
    size_t k = (size_t)snprintf(line, room, "[%.6f, \"o\", \"", t < 0 ? 0 : t);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = data[i];
        if (c == '"' || c == '\\') {
            line[k++] = '\\';
            line[k++] = (char)c;
        } else if (c == '\n') {
            line[k++] = '\\';
            line[k++] = 'n';
        } else if (c == '\r') {
            line[k++] = '\\';
            line[k++] = 'r';
        } else if (c < 0x20 || c == 0x7F) {
            k += (size_t)snprintf(line + k, room - k, "\\u%04x", c);
        } else {
            line[k++] = (char)c;
        }
    }
    memcpy(line + k, "\"]\n", 3);
    write_all(rec.cast, line, k + 3);
    free(line);
}

static void *copy_output(void *unused) {
    (void)unused;
    // Held back from the recording until the next read: the start of a query or of a UTF-8 sequence.
    unsigned char pending[8];
    size_t pending_n = 0;
    unsigned char buf[65536 + 8];
    for (;;) {
        ssize_t n = read(rec.master, buf + 8, 65536);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // EIO: the writing side closed
        int last = __atomic_load_n(&rec.stopping, __ATOMIC_ACQUIRE) && buf[8 + n - 1] == 0;
        if (last) n--;
        write_all(rec.real_out, (const char *)buf + 8, (size_t)n);
        // The recording: what was held back, this read, less queries.
        unsigned char *data = buf + 8 - pending_n;
        memcpy(data, pending, pending_n);
        size_t len = pending_n + (size_t)n, out = 0;
        pending_n = 0;
        for (size_t i = 0; i < len; i++) {
            if (data[i] == 0x1B && i + 2 < len && data[i + 1] == '[' && data[i + 2] == 'c') {
                i += 2;
                continue;
            }
            data[out++] = data[i];
        }
        // An Esc or Esc [ at the end may begin a query; an unfinished UTF-8 sequence continues.
        size_t keep = 0;
        if (out >= 1 && data[out - 1] == 0x1B) keep = 1;
        else if (out >= 2 && data[out - 2] == 0x1B && data[out - 1] == '[') keep = 2;
        else {
            for (size_t back = 1; back <= 3 && back <= out; back++) {
                unsigned char b = data[out - back];
                if (b >= 0xC0) {
                    if (utf8_length(b) > back) keep = back;
                    break;
                }
                if (b < 0x80) break;
            }
        }
        memcpy(pending, data + out - keep, keep);
        pending_n = keep;
        if (out - keep > 0) write_event(data, out - keep);
        if (last) break;
    }
    if (pending_n > 0) write_event(pending, pending_n);
    return NULL;
}

int termmap_record_start(int cast_fd) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return -1;
    if (tcgetattr(STDIN_FILENO, &rec.saved) != 0) return -1;
    struct termios slave_modes = rec.saved;
    if (openpty(&rec.master, &rec.slave, NULL, &slave_modes, &size) != 0) return -1;
    fcntl(rec.master, F_SETFD, FD_CLOEXEC);
    fcntl(rec.slave, F_SETFD, FD_CLOEXEC);
    // stdout's descriptor becomes the pseudo-terminal: ncurses and the stdio it also writes through
    // (putchar in mvcur, putp, vidattr) then all go there, in order. The terminal keeps a descriptor
    // of its own for the copy.
    fflush(stdout);
    rec.real_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (rec.real_out < 0 || dup2(rec.slave, STDOUT_FILENO) < 0) {
        if (rec.real_out >= 0) close(rec.real_out);
        close(rec.master);
        close(rec.slave);
        return -1;
    }
    // ncurses sets the modes of the terminal it writes to (the pseudo-terminal): keys are read from the
    // real one, so that one is made raw here, and restored when recording stops.
    struct termios raw_modes = rec.saved;
    cfmakeraw(&raw_modes);
    tcsetattr(STDIN_FILENO, TCSADRAIN, &raw_modes);
    rec.saved_ok = 1;
    rec.cast = cast_fd;
    clock_gettime(CLOCK_MONOTONIC, &rec.start);
    if (pthread_create(&rec.thread, NULL, copy_output, NULL) != 0) {
        tcsetattr(STDIN_FILENO, TCSADRAIN, &rec.saved);
        dup2(rec.real_out, STDOUT_FILENO);
        close(rec.real_out);
        close(rec.master);
        close(rec.slave);
        return -1;
    }
    rec.running = 1;
    return 0;
}

void termmap_record_sync_size(void) {
    if (!rec.running) return;
    struct winsize real, shown;
    if (ioctl(rec.real_out, TIOCGWINSZ, &real) != 0 || ioctl(rec.slave, TIOCGWINSZ, &shown) != 0) return;
    if (real.ws_row != shown.ws_row || real.ws_col != shown.ws_col) ioctl(rec.slave, TIOCSWINSZ, &real);
}

// ncurses' own SIGWINCH handler, called after the pseudo-terminal has taken the new size (ncurses reads
// the size of the terminal it writes to).
static struct sigaction ncurses_winch;

static void sync_then_ncurses(int sig) {
    int saved_errno = errno;
    termmap_record_sync_size();
    errno = saved_errno;
    if (ncurses_winch.sa_handler != SIG_DFL && ncurses_winch.sa_handler != SIG_IGN && ncurses_winch.sa_handler != NULL)
        ncurses_winch.sa_handler(sig);
}

void termmap_record_watch_resize(void) {
    if (!rec.running) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sync_then_ncurses;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGWINCH, &sa, &ncurses_winch);
}

void termmap_record_stop(void) {
    if (!rec.running) return;
    rec.running = 0;
    fflush(stdout);
    // A NUL after everything ncurses wrote marks the end: once the copying thread has read it, all of
    // it has reached the terminal and the file. (Waiting for the pseudo-terminal to look empty is not
    // enough: the kernel hands written bytes to its reading side a moment later.)
    __atomic_store_n(&rec.stopping, 1, __ATOMIC_RELEASE);
    const char end = 0;
    ssize_t marked;
    do marked = write(rec.slave, &end, 1); while (marked < 0 && errno == EINTR);
    if (marked != 1) {
        // Cannot mark: closing every descriptor of the writing side ends the copy instead.
        dup2(rec.real_out, STDOUT_FILENO);
        close(rec.slave);
    }
    pthread_join(rec.thread, NULL);
    dup2(rec.real_out, STDOUT_FILENO);
    close(rec.real_out);
    if (marked == 1) close(rec.slave);
    close(rec.master);
    if (rec.saved_ok) tcsetattr(STDIN_FILENO, TCSADRAIN, &rec.saved);
}

void termmap_terminal_size(int *cols, int *rows) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0) {
        *cols = size.ws_col;
        *rows = size.ws_row;
    }
}

void termmap_cell_pixels(int *width, int *height) {
    // The real terminal's size while recording (the pseudo-terminal's copy carries no pixels).
    int fd = rec.running ? rec.real_out : STDOUT_FILENO;
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0) {
        *width = size.ws_xpixel / size.ws_col;
        *height = size.ws_ypixel / size.ws_row;
    }
}

void termmap_write_terminal(const unsigned char *bytes, size_t len) {
    int fd = rec.running ? rec.real_out : STDOUT_FILENO;
    size_t sent = 0;
    while (sent < len) {
        ssize_t w = write(fd, bytes + sent, len - sent);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (w <= 0) break;
        sent += (size_t)w;
    }
}

void termmap_write_stdout(const unsigned char *bytes, size_t len) {
    size_t sent = 0;
    while (sent < len) {
        ssize_t w = write(STDOUT_FILENO, bytes + sent, len - sent);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (w <= 0) break;  // a terminal that has gone
        sent += (size_t)w;
    }
}

// MARK: Bus errors from a mapped file that shrank, and crashes.

static char mapped_file[1024] = "a mapped file";
static volatile sig_atomic_t curses_active = 0;
// The terminal's modes before curses changed them (saved when the crash handlers are installed, at
// start), restored by the crash handler with tcsetattr, which is async-signal-safe (POSIX.1-2017 2.4.3).
static struct termios shell_modes;
static volatile sig_atomic_t have_shell_modes = 0;

static void write_text(int fd, const char *s) { write_all(fd, s, strlen(s)); }

// Leaves the terminal as the shell had it, with async-signal-safe calls only (write, tcsetattr):
// mouse reports off, attributes reset, the cursor shown, the alternate screen left, the saved modes back.
static void restore_terminal_from_handler(void) {
    if (!curses_active) return;
    curses_active = 0;
    write_text(STDOUT_FILENO, "\033[?1006l\033[?1002l\033[?1000l\033[0m\033[?25h\033[?1049l\r\n");
    if (have_shell_modes) tcsetattr(STDIN_FILENO, TCSANOW, &shell_modes);
}

static void on_bus_error(int sig) {
    (void)sig;
    restore_terminal_from_handler();
    write_text(STDERR_FILENO, "termmap: ");
    write_text(STDERR_FILENO, mapped_file);
    write_text(STDERR_FILENO, ": the file changed (it shrank) while it was read\n");
    _exit(1);
}

// The crash signals, what was installed for each before (Swift's backtracer, when it runs), and
// whether a crash says one line and ends (kiosk mode: no backtrace at all).
static const int crash_signals[] = {SIGSEGV, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGSYS};
#define CRASH_SIGNALS (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction before_crash[CRASH_SIGNALS];
static volatile sig_atomic_t crash_quietly = 0;

static void decimal(char *out, int n) {
    char digits[12];
    int k = 0;
    do { digits[k++] = (char)('0' + n % 10); n /= 10; } while (n > 0 && k < 11);
    for (int i = 0; i < k; i++) out[i] = digits[k - 1 - i];
    out[k] = 0;
}

static void on_crash(int sig, siginfo_t *info, void *context) {
    restore_terminal_from_handler();
    size_t i = 0;
    while (i < CRASH_SIGNALS && crash_signals[i] != sig) i++;
    struct sigaction *before = i < CRASH_SIGNALS ? &before_crash[i] : 0;
    int chained = before && (before->sa_flags & SA_SIGINFO ? before->sa_sigaction != 0
                                                          : before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN);
    if (crash_quietly || !chained) {
        char number[12];
        decimal(number, sig);
        write_text(STDERR_FILENO, "termmap: internal error (signal ");
        write_text(STDERR_FILENO, number);
        write_text(STDERR_FILENO, "); the terminal is restored\n");
    }
    if (!crash_quietly && chained) {
        // What was there before (Swift's backtracer, told at start never to wait for a key), called as
        // the kernel would have; a signal sent from outside (kill -SEGV) returns from it.
        if (before->sa_flags & SA_SIGINFO) before->sa_sigaction(sig, info, context);
        else before->sa_handler(sig);
    }
    if (crash_quietly) _exit(128 + sig);
    // Then the default action, so that the end is the crash's, whatever the handler before did.
    signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    pthread_sigmask(SIG_UNBLOCK, &only, 0);
    raise(sig);
    _exit(128 + sig);
}

int termmap_crash_handler_installed_before(void) {
    struct sigaction old;
    if (sigaction(SIGSEGV, 0, &old) != 0) return 0;
    return old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN;
}

void termmap_install_crash_handlers(int quietly) {
    crash_quietly = quietly;
    if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &shell_modes) == 0) have_shell_modes = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_crash;
    sigemptyset(&sa.sa_mask);
    // On the signal's own stack where the runtime made one (a stack overflow leaves none).
    sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    for (size_t i = 0; i < CRASH_SIGNALS; i++) sigaction(crash_signals[i], &sa, &before_crash[i]);
}

void termmap_guard_mapped_file(const char *name) {
    static int installed = 0;
    size_t n = strlen(name);
    if (n >= sizeof mapped_file) n = sizeof mapped_file - 1;
    memcpy(mapped_file, name, n);
    mapped_file[n] = 0;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_bus_error;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, 0);
        installed = 1;
    }
}

void termmap_set_curses_active(int active) { curses_active = active; }
