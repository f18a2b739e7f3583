/// Why a map data file could not be used; `description` names the file and the fault in one line.
public struct MapDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of fault.
    public enum Kind: Equatable, Sendable {
        case unreadable(String)
        /// A remote source that gave no answer at all (no network, a host not found, a time-out): one
        /// that may answer later.
        case unreachable(String)
        case truncated(String)
        case badMagic
        case unsupportedVersion(Int)
        case checksumMismatch(String)
        case badOffset(String)
        case corrupt(String)
        case badInput(String)
        case notFound(String)
        /// A text format's syntax, at a line and column (both from 1).
        case syntax(line: Int, column: Int, String)
    }

    /// The file (or `<memory>`).
    public var file: String
    /// What is wrong.
    public var kind: Kind

    /// An error about `file`.
    public init(file: String, _ kind: Kind) {
        self.file = file
        self.kind = kind
    }

    /// `FILE: what is wrong`.
    public var description: String {
        let what: String
        switch kind {
        case .unreadable(let why): what = "cannot read (\(why))"
        case .unreachable(let why): what = "cannot be reached (\(why))"
        case .truncated(let part): what = "truncated in the \(part)"
        case .badMagic: what = "not a termmap map data file (wrong magic)"
        case .unsupportedVersion(let v):
            what = "format version \(v) is not supported (this termmap reads version \(MapAssetFormat.version))"
        case .checksumMismatch(let part): what = "checksum mismatch in the \(part) (the file is damaged)"
        case .badOffset(let part): what = "bad offset or length in the \(part)"
        case .corrupt(let part): what = "corrupt \(part)"
        case .badInput(let why): what = why
        case .notFound(let why): what = why
        case .syntax(let line, let column, let why): return "\(file):\(line):\(column): \(why)"
        }
        return "\(file): \(what)"
    }
}
