import CTerminal

/// Ctrl-C as a request, for a command that stops cleanly: the first SIGINT (or SIGTERM, SIGHUP) is
/// recorded and the command asks for it where it can stop without losing work (`data get` keeps the
/// tiles in flight); a second one ends the program at once.
public enum Interruption {
    /// Records the first interrupt from now on.
    public static func catchFirst() { termmap_install_interrupt_handlers() }

    /// True (once) when an interrupt came.
    public static func requested() -> Bool { termmap_take_signal() != 0 }
}
