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
static inline attr_t termmap_a_dim(void) { return A_DIM; }
