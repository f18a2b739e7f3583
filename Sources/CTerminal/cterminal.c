#include "cterminal.h"

#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

WINDOW *termmap_stdscr(void) { return stdscr; }
int termmap_terminal_colors(void) {
    if (!has_colors()) return 0;
    int n = tigetnum("colors");
    return n > 0 ? n : 0;
}
attr_t termmap_a_reverse(void) { return A_REVERSE; }
attr_t termmap_a_bold(void) { return A_BOLD; }
attr_t termmap_a_underline(void) { return A_UNDERLINE; }
int termmap_color_pairs(void) { return COLOR_PAIRS; }
attr_t termmap_a_visible_on_blank(void) { return A_REVERSE | A_UNDERLINE | A_STANDOUT | A_BLINK; }

// No BUTTON1_CLICKED: asked for clicks, ncurses holds a release back (waiting to make it a click)
// until more input comes, and an animation started by the press stops on screen until then.
// Presses, releases and motion (for dragging) are reported as they come; termmap makes clicks itself.
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
}

int termmap_take_signal(void) {
    int s = pending_signal;
    pending_signal = 0;
    return s;
}

SCREEN *termmap_newterm(const char *term) { return newterm(term, stdout, stdin); }
void termmap_force_full_repaint(void) { clearok(curscr, TRUE); }

int termmap_locale_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0 || strcmp(cs, "UTF8") == 0);
}

int termmap_stdin_hung_up(void) {
    struct pollfd p = {0, POLLIN, 0};
    if (poll(&p, 1, 0) < 0) return 0;
    return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

// A sideways pan costs the new columns instead of every cell: ncurses alone cannot do that (it
// moves lines, never columns). The next doupdate then sends only the cells that differ from the
// moved picture.
int termmap_shift_columns(int top, int bottom, int by) {
    const char *cap = tigetstr(by < 0 ? "dch" : "ich");
    int width = getmaxx(curscr);
    int n = by < 0 ? -by : by;
    if (cap == NULL || cap == (char *)-1 || n == 0 || n >= width || top < 0 || bottom > getmaxy(curscr)) return 0;
    cchar_t *line = calloc((size_t)width, sizeof(cchar_t));
    cchar_t *blanks = calloc((size_t)n, sizeof(cchar_t));
    if (line == NULL || blanks == NULL) {
        free(line);
        free(blanks);
        return 0;
    }
    wchar_t space[2] = {L' ', 0};
    for (int i = 0; i < n; i++) setcchar(&blanks[i], space, A_NORMAL, 0, NULL);
    // Cells the terminal opens up take the current background colour (bce): make it the default.
    vidattr(A_NORMAL);
    int fromRow = -1, fromCol = -1;  // unknown: the first move is absolute
    for (int row = top; row < bottom; row++) {
        mvcur(fromRow, fromCol, row, 0);
        putp(tiparm(cap, n));
        fromRow = row;
        fromCol = 0;
        if (by < 0) {  // delete n at the left: the rest moves left, blanks come in at the right
            mvwin_wchnstr(curscr, row, n, line, width - n);
            mvwadd_wchnstr(curscr, row, 0, line, width - n);
            mvwadd_wchnstr(curscr, row, width - n, blanks, n);
        } else {  // insert n at the left: the rest moves right, the last n fall off
            mvwin_wchnstr(curscr, row, 0, line, width - n);
            mvwadd_wchnstr(curscr, row, n, line, width - n);
            mvwadd_wchnstr(curscr, row, 0, blanks, n);
        }
    }
    free(line);
    free(blanks);
    // mvcur, putp and vidattr write through stdio, not through ncurses' own buffer (which doupdate
    // has emptied): flush now so that they reach the terminal before the next update.
    fflush(stdout);
    return 1;
}

// A blank's foreground colour cannot be seen, so the screen may record a blank there as having the
// colour it is about to draw it with: ncurses then sends nothing for it (it compares colours even of
// blanks).
int termmap_curscr_space(int row, int col, attr_t *attr, short *pair) {
    cchar_t shown;
    wchar_t text[CCHARW_MAX + 1];
    if (mvwin_wch(curscr, row, col, &shown) != OK || getcchar(&shown, text, attr, pair, NULL) != OK) return 0;
    return text[0] == L' ' && text[1] == 0;
}

void termmap_curscr_set(int row, int col, const cchar_t *c) { mvwadd_wchnstr(curscr, row, col, c, 1); }
