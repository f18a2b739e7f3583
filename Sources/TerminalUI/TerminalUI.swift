import CNcursesw

/// Facts about the terminal library in use.
public enum TerminalInfo {
    /// The ncurses version string.
    public static var cursesVersion: String {
        String(cString: curses_version())
    }
}
