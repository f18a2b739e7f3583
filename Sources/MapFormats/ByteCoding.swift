import CZlib
import GeoCore

/// Bounds-checked little-endian reads over bytes; every read that would pass the end returns nil.
public struct ByteReader {
    // (Every read is @inlinable: the map data reader in another module decodes a place or an index
    // entry a few bytes at a time, and a call each cost a render 15 % more instructions.)
    /// The bytes read.
    public let bytes: UnsafeRawBufferPointer
    /// Where the next read starts.
    public var offset: Int
    /// Where reading stops.
    public let end: Int

    /// A reader of `bytes` from `start` to `end` (the end of the bytes by default).
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.offset = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    @inlinable
    public var remaining: Int { end - offset }

    @inlinable
    public mutating func u8() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    @inlinable
    public mutating func u16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    @inlinable
    public mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inlinable
    public mutating func i32() -> Int32? { u32().map { Int32(bitPattern: $0) } }

    @inlinable
    public mutating func f64() -> Double? {
        guard remaining >= 8 else { return nil }
        defer { offset += 8 }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    /// LEB128 unsigned varint of at most 10 bytes (protobuf's encoding).
    @inlinable @inline(__always)
    public mutating func varint() -> UInt64? {
        // Most varints are one byte (name lengths, deltas, kinds): that case inline, the rest below.
        guard offset < end else { return nil }
        let first = bytes[offset]
        if first < 0x80 {
            offset += 1
            return UInt64(first)
        }
        return longVarint()
    }

    /// A varint of two bytes or more.
    @inlinable
    public mutating func longVarint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 64 {
            guard offset < end else { return nil }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// Zigzag-decoded signed varint (protobuf's sint64).
    @inlinable @inline(__always)
    public mutating func signedVarint() -> Int64? {
        guard let v = varint() else { return nil }
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// Moves past `count` bytes; false (and stays) when fewer remain.
    @inlinable @inline(__always)
    public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        offset += count
        return true
    }

    @inlinable
    public mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }
}

/// Little-endian writes into a growing byte array.
public struct ByteWriter {
    public var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) {
        for i in 0..<2 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt16(i)))) }
    }
    public mutating func u32(_ v: UInt32) {
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) }
    }
    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    public mutating func f64(_ v: Double) {
        let b = v.bitPattern
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: b >> (8 * UInt64(i)))) }
    }
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
    public mutating func signedVarint(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }
    public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    /// At most `limit` bytes of `text`'s UTF-8, after their count.
    public mutating func text(_ text: String, limit: Int) {
        let utf8 = Array(text.utf8.prefix(limit))
        varint(UInt64(utf8.count))
        append(utf8)
    }
    /// A coordinate in `units` a degree, rounded: latitude, then longitude, as zigzag varints.
    public mutating func position(_ c: Coordinate, units: Double) {
        signedVarint(Int64((c.latitude * units).rounded()))
        signedVarint(Int64((c.longitude * units).rounded()))
    }
    public mutating func patchU32(_ v: UInt32, at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum of zlib and PNG.
public enum CRC32 {
    /// CRC-32 (IEEE 802.3, as zlib, PNG and gzip) continued over `bytes`: zlib's `crc32`, several times
    /// faster than a byte-a-time table (the check of a file's index and places at open is a tenth of a
    /// whole `termmap render`).
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        var c = UInt(crc)
        var p = base.assumingMemoryBound(to: UInt8.self)
        var left = bytes.count
        // zlib takes a 32-bit length.
        while left > 0 {
            let n = min(left, 1 << 30)
            c = UInt(crc32(c, p, UInt32(n)))
            p += n
            left -= n
        }
        return UInt32(truncatingIfNeeded: c)
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { update(0, $0) }
    }
}
