// ncursesw with the wide-character API; Debian package libncurses-dev.
// NCURSES_WIDECHAR must come before the header or cchar_t and get_wch are missing.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <ncursesw/curses.h>

// Swift 6 cannot read these C globals or macros safely: wrap them.
static inline WINDOW *termmap_stdscr(void) { return stdscr; }
static inline int termmap_lines(void) { return LINES; }
static inline int termmap_cols(void) { return COLS; }
static inline int termmap_colors(void) { return COLORS; }
static inline int termmap_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t termmap_color_pair(short n) { return (attr_t)COLOR_PAIR(n); }
static inline attr_t termmap_a_reverse(void) { return A_REVERSE; }
static inline attr_t termmap_a_bold(void) { return A_BOLD; }

// Mouse masks are built by macros Swift cannot import.
static inline mmask_t termmap_mouse_mask(void) {
    return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int termmap_is_click(mmask_t s) { return (s & (BUTTON1_CLICKED | BUTTON1_PRESSED)) != 0; }
static inline int termmap_is_wheel_up(mmask_t s) { return (s & BUTTON4_PRESSED) != 0; }
static inline int termmap_is_wheel_down(mmask_t s) { return (s & BUTTON5_PRESSED) != 0; }

// Signals that end the program: the handler only records which one arrived; the event loop
// notices, restores the terminal and exits. SIGPIPE is ignored so a dropped terminal cannot kill us
// half-way through restoring it.
#include <signal.h>
#include <string.h>
static volatile sig_atomic_t termmap_pending_signal = 0;
static void termmap_record_signal(int sig) { termmap_pending_signal = sig; }
static inline void termmap_install_signal_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = termmap_record_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, 0);
    sigaction(SIGHUP, &sa, 0);
    sigaction(SIGINT, &sa, 0);
    sigaction(SIGQUIT, &sa, 0);
    signal(SIGPIPE, SIG_IGN);
}
static inline int termmap_take_signal(void) {
    int s = termmap_pending_signal;
    termmap_pending_signal = 0;
    return s;
}

// Swift 6 cannot reference the C stdio globals or curscr safely; these wrappers can.
static inline SCREEN *termmap_newterm(const char *term) { return newterm(term, stdout, stdin); }
static inline void termmap_force_full_repaint(void) { clearok(curscr, TRUE); }
static inline int termmap_locale_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0 || strcmp(cs, "UTF8") == 0);
}

// True when the terminal has gone (an SSH connection dropped): reads would fail at once forever.
#include <poll.h>
static inline int termmap_stdin_hung_up(void) {
    struct pollfd p = {0, POLLIN, 0};
    if (poll(&p, 1, 0) < 0) return 0;
    return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}
