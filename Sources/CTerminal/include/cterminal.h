#ifndef TERMMAP_CTERMINAL_H
#define TERMMAP_CTERMINAL_H
// The terminal code Swift cannot write itself: ncurses' C globals and macros, signal handlers,
// and the column shift that edits ncurses' copy of the screen. TerminalUI is its only user.
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>

// C globals and macros that Swift 6 cannot read safely or import.
WINDOW *termmap_stdscr(void);
// Colours the terminal has (terminfo "colors"; 0 without colours), known before start_color.
int termmap_terminal_colors(void);
attr_t termmap_a_reverse(void);
attr_t termmap_a_bold(void);
attr_t termmap_a_underline(void);
// Colour pairs the terminal allows (after start_color).
int termmap_color_pairs(void);
// Attributes that show on a blank cell (reverse, underline, standout, blink).
attr_t termmap_a_visible_on_blank(void);

// The mouse events termmap asks for, and what an event was.
mmask_t termmap_mouse_mask(void);
int termmap_is_press(mmask_t state);
int termmap_is_release(mmask_t state);
int termmap_is_motion(mmask_t state);
int termmap_is_wheel_up(mmask_t state);
int termmap_is_wheel_down(mmask_t state);

// SIGTERM, SIGHUP, SIGINT and SIGQUIT are recorded, not acted on: the event loop asks
// termmap_take_signal, restores the terminal and exits. SIGPIPE is ignored, so that a dropped
// terminal cannot kill the program half-way through restoring it.
void termmap_install_signal_handlers(void);
// The signal recorded since the last call, or 0.
int termmap_take_signal(void);

// newterm on stdout/stdin (Swift cannot reference the stdio globals); NULL for an unknown terminal.
SCREEN *termmap_newterm(const char *term);
// From here until termmap_take_gathered, what ncurses writes to stdout is kept; that returns it (valid
// until the next gathering), and termmap_write_stdout sends bytes in one write where the kernel allows.
void termmap_gather_output(void);
const unsigned char *termmap_take_gathered(size_t *len);
void termmap_write_stdout(const unsigned char *bytes, size_t len);

// --record: from here on stdout is a pseudo-terminal of the terminal's size and modes, and a
// thread copies its output to the terminal and, as asciicast v2 event lines, to `cast_fd` (whose
// header the caller has written). The real terminal is made raw until termmap_record_stop, which
// copies what is left and restores it. Returns 0, or -1 having changed nothing.
int termmap_record_start(int cast_fd);
// Gives the pseudo-terminal the terminal's size when it has changed (before reading a key).
void termmap_record_sync_size(void);
// The terminal's size, when it can tell (the values are left as they are otherwise).
void termmap_terminal_size(int *cols, int *rows);
// After newterm: a resize gives the pseudo-terminal the new size before ncurses' handler asks for it.
void termmap_record_watch_resize(void);
// Stops recording: what ncurses wrote is copied out, the terminal's modes restored.
void termmap_record_stop(void);

// A cell as setcchar makes it, for a glyph one column wide (every glyph termmap draws is): without
// setcchar's checks of the text, which cost more than the rest of putting a frame's cells in place.
static inline void termmap_make_cell(cchar_t *c, wchar_t glyph, attr_t attr, int pair) {
    *c = (cchar_t){0};
    c->attr = (attr & ~A_COLOR) | (attr_t)COLOR_PAIR(pair > 255 ? 255 : pair);
    c->chars[0] = glyph;
    c->ext_color = pair;
}
// When the cell is a blank: its attributes and colour pair, and 1; else 0.
static inline int termmap_cell_blank(const cchar_t *c, attr_t *attr, int *pair) {
    if (c->chars[0] != L' ' || c->chars[1] != 0) return 0;
    *attr = c->attr & ~A_COLOR;
    *pair = c->ext_color;
    return 1;
}
// A row of ncurses' copy of what the terminal shows, and a change to it (see CursesScreen.present).
void termmap_curscr_row(int row, cchar_t *cells, int n);
void termmap_curscr_set_row(int row, const cchar_t *cells, int n);

// The next doupdate redraws every cell.
void termmap_force_full_repaint(void);
// 1 when the locale's character set is UTF-8 (braille can be shown).
int termmap_locale_is_utf8(void);
// 1 when the terminal has gone (an SSH connection dropped): reads would fail at once forever.
int termmap_stdin_hung_up(void);

// Moves screen rows [top, bottom) sideways by `by` columns (negative: to the left) with the
// terminal's delete- or insert-character command, and makes the same change in curscr.
// Returns 0, having sent nothing, when the terminal has no such command.
int termmap_shift_columns(int top, int bottom, int by);

#endif
