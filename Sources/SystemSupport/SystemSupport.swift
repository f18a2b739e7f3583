import FoundationEssentials
import Glibc
import Support

// What termmap needs from the system beyond FoundationEssentials (a lock, error words, file facts, the
// monotonic clock, writing to the standard streams, the allocator's settings): the full Foundation (and
// its ICU data) would be loaded at every start for a handful of conveniences, and cost more than a bare
// Swift program's whole start-up. Text helpers, which need none of the system, are in `Support`.

/// A mutual-exclusion lock for state kept beside a C handle (a pthread mutex).
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// An unlocked lock.
    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits for the lock and takes it.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Gives the lock back.
    public func unlock() { pthread_mutex_unlock(mutex) }
}

/// What the C library says of an error number (the last call's by default), in lower case.
public func systemErrorReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)).lowercased() }

/// Why a file could not be read or written, in a few words (`no such file`, `permission denied`).
public func fileErrorReason(_ error: any Error) -> String {
    if let cocoa = error as? CocoaError {
        switch cocoa.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileReadTooLarge: return "too large"
        default: break
        }
        // Foundation wraps the system's reason (EISDIR, ELOOP, …) as the underlying error: that is the one to say.
        if let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
            return systemErrorReason(posix.code.rawValue)
        }
    }
    if let posix = error as? POSIXError { return systemErrorReason(posix.code.rawValue) }
    if let cocoa = error as? CocoaError { return "file error \(cocoa.code.rawValue)" }
    let text = "\(error)"
    return text.split(separator: "\n").first.map(String.init) ?? text
}

/// The first `count` bytes of a file (fewer if it is shorter), or nil when it cannot be opened.
public func readFileHead(_ path: String, count: Int) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes = [UInt8](repeating: 0, count: count)
    let n = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
    return Array(bytes.prefix(n))
}

/// The user's home folder from the password database (when `HOME` is not set).
public func homeDirectoryFromPasswordDatabase() -> String {
    guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
    return String(cString: dir)
}

/// Whether `path` names a folder (false when it names a file or nothing).
public func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// The size of a file in bytes, or nil when there is none.
public func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

/// Seconds from a monotonic clock (animations must not jump when the wall clock does).
public func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Writes a line to standard error, every piece of outside text in it made visible (`SafeText.forLine`).
public func printError(_ line: String) {
    let bytes = Array((SafeText.forLine(line) + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// Writes text to standard output, line by line as `SafeText.forLines` makes it visible: what a command
/// prints of a file's, a server's or a configuration's text cannot act on the terminal. Every command
/// prints through this (or `printError`); only bytes termmap composed itself, escape sequences and
/// all (`render`'s screen), go out through `printComposed`.
public func printComposed(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

/// Writes text to standard output made visible (`SafeText.forLines`).
public func printLine(_ text: String, terminator: String = "\n") {
    let bytes = Array((SafeText.forLines(text) + terminator).utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

/// The allocator's settings for drawing frames: a frame makes arrays of a few hundred kilobytes (the
/// pick's numbers, the markers of a million points), and glibc maps each one above 128 KB afresh and
/// hands it back when freed, so that every frame faults in and clears those pages again (a third of a
/// zoom-0 frame of a million points). Kept in the heap below 2 MB, and the heap's top kept up to 32 MB,
/// frames reuse their memory; the large arrays of the user's data are still mapped and given back.
/// (`mallopt` and its parameters are in glibc's malloc.h, which Swift's Glibc module leaves out:
/// looked up by name, with M_TRIM_THRESHOLD −1 and M_MMAP_THRESHOLD −3 as malloc.h numbers them.)
public func tuneAllocatorForFrames() {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(nil, "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    _ = mallopt(-3, 2 << 20)
    _ = mallopt(-1, 32 << 20)
}
