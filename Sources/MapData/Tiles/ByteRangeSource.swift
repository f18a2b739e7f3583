import FoundationEssentials
import Glibc
import MapFormats
import Support
import SystemSupport

/// Where an archive's bytes come from, read by range: a local file, or a URL over HTTP range requests.
public protocol ByteRangeSource: AnyObject, Sendable {
    /// The path or URL, for messages.
    var name: String { get }
    /// The bytes `offset ..< offset + length` (fewer only at the end of the file).
    func read(offset: UInt64, length: Int) throws(MapDataError) -> [UInt8]
    /// Several ranges at once (a remote source coalesces neighbours into one request), in order.
    func read(ranges: [(offset: UInt64, length: Int)]) throws(MapDataError) -> [[UInt8]]
    /// True when the bytes changed since they were first read (a file replaced on the server): the
    /// reader drops what it cached and starts again. Local files are mapped once and never change.
    func takeChanged() -> Bool
    /// The whole file's size when known (a local file's; a server's `Content-Range` total once a range
    /// was read), so that a reader can check its sections lie inside it.
    var knownSize: UInt64? { get }
}

extension ByteRangeSource {
    public func read(ranges: [(offset: UInt64, length: Int)]) throws(MapDataError) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for r in ranges { out.append(try read(offset: r.offset, length: r.length)) }
        return out
    }

    public func takeChanged() -> Bool { false }
    public var knownSize: UInt64? { nil }
}

/// A local file, mapped into memory once (a planet-sized archive costs address space, not memory).
public final class LocalFileSource: ByteRangeSource {
    public let name: String
    private let data: Data

    /// Maps the file at `path`.
    public init(path: String) throws(MapDataError) {
        name = path
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw MapDataError(file: path, .unreadable(fileErrorReason(error)))
        }
    }

    /// Bytes in memory (tests, fuzzing).
    public init(bytes: [UInt8], name: String = "<memory>") {
        self.name = name
        data = Data(bytes)
    }

    /// The file's size in bytes.
    public var size: UInt64 { UInt64(data.count) }
    public var knownSize: UInt64? { size }

    public func read(offset: UInt64, length: Int) throws(MapDataError) -> [UInt8] {
        guard length >= 0, offset <= UInt64(data.count) else {
            throw MapDataError(file: name, .badOffset("range \(offset)+\(length)"))
        }
        let start = Int(offset)
        let end = start + min(length, data.count - start)
        return [UInt8](data[start..<end])
    }
}
