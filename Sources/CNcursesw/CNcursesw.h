// ncursesw with the wide-character API; Debian package libncurses-dev. What Swift cannot use of it
// directly (C globals, macros, signal handling) is in the CTerminal target.
// NCURSES_WIDECHAR must come before the header or cchar_t and get_wch are missing.
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
