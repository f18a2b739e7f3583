import CTerminal
import Support

/// A file read through a memory mapping raises SIGBUS where it shrinks under the reader (another
/// program truncating it): instead of a crash, one line naming the file, the terminal restored, exit 1.
public enum MappedFileGuard {
    /// Runs `read` with `file` named as the one being read through a mapping (the handler is installed
    /// on first use); afterwards a bus error names no file of the user's.
    public static func reading<T>(_ file: String, _ read: () -> T) -> T {
        termmap_guard_mapped_file(SafeText.forLine(file))
        defer { termmap_guard_mapped_file("a mapped file") }
        return read()
    }
}
