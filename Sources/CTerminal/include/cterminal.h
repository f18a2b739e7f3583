#ifndef TERMMAP_CTERMINAL_H
#define TERMMAP_CTERMINAL_H
// The terminal code Swift cannot write itself: ncurses' C globals and macros, terminfo, signal
// handlers and the recording. TerminalUI is its only user.
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>

// C globals and macros that Swift 6 cannot read safely or import.
WINDOW *termmap_stdscr(void);
// Colours the terminal has (terminfo "colors"; 0 without colours), known before start_color.
int termmap_terminal_colors(void);
// 1 when the terminal has the terminfo string capability `name`.
int termmap_has_string(const char *name);
// 1 when the terminal has the terminfo boolean capability `name`.
int termmap_has_flag(const char *name);
// 1 when the terminal's cursor addressing (terminfo "cup") is ECMA-48's CUP, ESC [ row ; col H.
int termmap_cursor_addressing_is_ansi(void);

// The mouse events termmap asks for, and what an event was.
mmask_t termmap_mouse_mask(void);
/* The key code curses decodes the terminfo string capability `name` to (`kLFT5`: Ctrl-←), or -1
   when the terminal's entry lacks it. */
int termmap_key_code(const char *name);
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
// SIGINT, SIGTERM and SIGHUP recorded once (termmap_take_signal), then left to their default: a
// second Ctrl-C ends the program.
void termmap_install_interrupt_handlers(void);
// SIGTSTP from outside (`kill -TSTP`; Ctrl-Z itself is a key in raw mode) is recorded too, apart:
// 1 when one came since the last call. The viewer suspends as for Ctrl-Z.
int termmap_take_stop_request(void);
// 1 when a stop would reach a shell that can continue it: the process group is a job of its own in
// the foreground, and an ancestor outside it is in the same session (POSIX: the group is not
// orphaned; Linux discards a SIGTSTP to an orphaned group). 0 under `sh -c` as a session leader, an
// sshd ForceCommand's `exec`, or no terminal.
int termmap_job_control(void);
// Stops the process group as the terminal's SIGTSTP would (the default action, for the shell to see),
// and returns once it is continued (SIGCONT: `fg`).
void termmap_stop_self(void);

// A file read through a mapping that shrinks under the reader raises SIGBUS: the handler restores
// the terminal (when curses is on), says in one line that `name` changed while it was read, and
// exits 1. Names the file being read from here on.
void termmap_guard_mapped_file(const char *name);
// Crashes (SIGSEGV, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGSYS) restore the terminal first, from the
// handler, with async-signal-safe calls only (the modes saved here, at start); then, `quietly` (kiosk
// mode), one line and the end, else what was installed before runs (Swift's backtracer, or the default).
void termmap_install_crash_handlers(int quietly);
// 1 when something (Swift's backtracer) handles SIGSEGV already, before termmap installs anything.
int termmap_crash_handler_installed_before(void);
// Tells the SIGBUS and crash handlers whether curses holds the terminal.
void termmap_set_curses_active(int active);

// newterm on stdout/stdin (Swift cannot reference the stdio globals); NULL for an unknown terminal.
SCREEN *termmap_newterm(const char *term);
// Sends bytes to the terminal, in one write where the kernel allows.
void termmap_write_stdout(const unsigned char *bytes, size_t len);
// Writes to the terminal itself, past a recording's pseudo-terminal: a question (OSC 11) that is not
// part of what the recording shows.
void termmap_write_terminal(const unsigned char *bytes, size_t len);

// --record: from here on stdout is a pseudo-terminal of the terminal's size and modes, and a
// thread copies its output to the terminal and, as asciicast v2 event lines, to `cast_fd` (whose
// header the caller has written). The real terminal is made raw until termmap_record_stop, which
// copies what is left and restores it. Returns 0, or -1 having changed nothing.
int termmap_record_start(int cast_fd);
// Gives the pseudo-terminal the terminal's size when it has changed (before reading a key).
void termmap_record_sync_size(void);
// The terminal's size, when it can tell (the values are left as they are otherwise).
void termmap_terminal_size(int *cols, int *rows);
// A cell's size in pixels, from the window size's pixel fields (0 where the terminal leaves them 0).
void termmap_cell_pixels(int *width, int *height);
// After newterm: a resize gives the pseudo-terminal the new size before ncurses' handler asks for it.
void termmap_record_watch_resize(void);
// Stops recording: what ncurses wrote is copied out, the terminal's modes restored.
void termmap_record_stop(void);

// ncurses clears the screen and shows stdscr (blank: termmap draws through TerminalPainter instead).
void termmap_refresh_cleared(void);
// 1 when the locale's character set is UTF-8 (braille can be shown).
int termmap_locale_is_utf8(void);
// 1 when the terminal has gone (an SSH connection dropped): reads would fail at once forever.
int termmap_stdin_hung_up(void);

#endif
