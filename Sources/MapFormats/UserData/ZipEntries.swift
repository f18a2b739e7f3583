/// The entries of a zip archive (PKWARE's APPNOTE 6.3: the central directory at the end, each entry's
/// local header where it says), enough to read a KMZ's KML: stored or deflated entries, read whole up
/// to a ceiling (a zip bomb is one line, not memory without end).
struct ZipEntries {
    /// One entry: its name and where its data is.
    struct Entry {
        var name: String
        var method: UInt16
        var compressedSize: Int
        var size: Int
        var localHeader: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let entries: [Entry]

    /// True when `bytes` start as a zip archive does (a local file header).
    static func isZip(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    private static func u16(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func u32(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }

    /// The archive's entries, nil when it has no central directory that reads.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // The end of central directory record: its signature within the last 64 KB + 22 bytes.
        guard bytes.count >= 22 else { return nil }
        var end = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while end >= lowest,
            !(bytes[end] == 0x50 && bytes[end + 1] == 0x4B && bytes[end + 2] == 0x05 && bytes[end + 3] == 0x06)
        { end -= 1 }
        guard end >= lowest else { return nil }
        let count = Self.u16(bytes, end + 10)
        var at = Self.u32(bytes, end + 16)
        var entries: [Entry] = []
        for _ in 0..<count {
            guard at + 46 <= bytes.count, Self.u32(bytes, at) == 0x0201_4B50 else { return nil }
            let nameLength = Self.u16(bytes, at + 28)
            let extra = Self.u16(bytes, at + 30)
            let comment = Self.u16(bytes, at + 32)
            guard at + 46 + nameLength <= bytes.count else { return nil }
            let name = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[(at + 46)..<(at + 46 + nameLength)]), as: UTF8.self)
            entries.append(
                Entry(
                    name: name, method: UInt16(Self.u16(bytes, at + 10)), compressedSize: Self.u32(bytes, at + 20),
                    size: Self.u32(bytes, at + 24), localHeader: Self.u32(bytes, at + 42)))
            at += 46 + nameLength + extra + comment
        }
        self.entries = entries
    }

    /// Why an entry could not be read: damaged (or inflating past the limit), or compressed in a way
    /// not read here.
    enum Failure: Error {
        case damagedOrTooLarge
        case method(UInt16)
    }

    /// The bytes of `entry`, inflated; at most `limit` bytes.
    func data(_ entry: Entry, limit: Int) -> Result<[UInt8], Failure> {
        let h = entry.localHeader
        guard h + 30 <= bytes.count, Self.u32(bytes, h) == 0x0403_4B50 else { return .failure(.damagedOrTooLarge) }
        let start = h + 30 + Self.u16(bytes, h + 26) + Self.u16(bytes, h + 28)
        guard entry.compressedSize >= 0, start + entry.compressedSize <= bytes.count else {
            return .failure(.damagedOrTooLarge)
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<(start + entry.compressedSize)])
        let raw = UnsafeRawBufferPointer(slice)
        switch entry.method {
        case 0:
            guard entry.compressedSize <= limit else { return .failure(.damagedOrTooLarge) }
            return .success(Array(slice))
        case 8:
            guard let out = Zlib.inflate(raw: raw, limit: limit) else { return .failure(.damagedOrTooLarge) }
            return .success(out)
        default:
            return .failure(.method(entry.method))
        }
    }
}
