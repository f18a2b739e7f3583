import CTerminal

/// A file read through a memory mapping raises SIGBUS where it shrinks under the reader (another
/// program truncating it): instead of a crash, one line naming the file, the terminal restored, exit 1.
public enum MappedFileGuard {
    /// Names `file` as the one being read through a mapping (the handler is installed on first use).
    public static func reading(_ file: String) {
        termmap_guard_mapped_file(file)
    }
}
