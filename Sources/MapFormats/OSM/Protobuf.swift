/// The protocol buffers wire format, read by hand (developers.google.com/protocol-buffers/docs/encoding):
/// each field is a varint key (field number << 3 | wire type) and a value: varint (0), 64-bit (1),
/// length-delimited (2) or 32-bit (5). Every read is bounds-checked; a malformed message gives nil.
public struct ProtobufReader {
    /// The bytes, read with the map data format's own varint reader (the same LEB128).
    private var r: ByteReader

    /// A reader of `bytes`, from their start.
    public init(_ bytes: UnsafeRawBufferPointer) { r = ByteReader(bytes) }

    /// True when every byte has been read.
    public var atEnd: Bool { r.remaining <= 0 }

    /// How many bytes have been read (where the next field starts).
    public var position: Int { r.offset }

    /// A varint of at most 10 bytes.
    public mutating func varint() -> UInt64? { r.varint() }

    /// The next field's number and wire type, or nil at the end or on a malformed key.
    public mutating func field() -> (number: Int, wireType: Int)? {
        guard !atEnd, let key = varint(), key >> 3 >= 1, key >> 3 <= 1 << 29 else { return nil }
        return (Int(key >> 3), Int(key & 7))
    }

    /// The bytes of a length-delimited value.
    public mutating func lengthDelimited() -> UnsafeRawBufferPointer? {
        guard let n = varint(), n <= UInt64(r.remaining) else { return nil }
        return r.bytes(Int(n))
    }

    /// A little-endian fixed 32-bit value (wire type 5).
    mutating func fixed32() -> UInt32? { r.u32() }

    /// A little-endian fixed 64-bit value (wire type 1).
    mutating func fixed64() -> UInt64? {
        guard let lo = r.u32(), let hi = r.u32() else { return nil }
        return UInt64(lo) | UInt64(hi) << 32
    }

    /// Skips a value of `wireType`; false when it cannot (a group, an unknown type, past the end).
    public mutating func skip(_ wireType: Int) -> Bool {
        switch wireType {
        case 0: return varint() != nil
        case 1: return advance(8)
        case 2: return lengthDelimited() != nil
        case 5: return advance(4)
        default: return false
        }
    }

    private mutating func advance(_ n: Int) -> Bool { r.bytes(n) != nil }

    /// Zigzag decoding (sint32/sint64).
    static func zigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }

    /// The varints of a packed repeated field, each through `transform`; nil if malformed.
    static func packed<T>(_ bytes: UnsafeRawBufferPointer, _ transform: (UInt64) -> T) -> [T]? {
        var r = ProtobufReader(bytes)
        var out: [T] = []
        out.reserveCapacity(bytes.count / 2)
        while !r.atEnd {
            guard let v = r.varint() else { return nil }
            out.append(transform(v))
        }
        return out
    }

    /// Packed sint64 values, delta-coded (each the sum of the deltas so far), as in DenseNodes and refs.
    static func packedDeltas(_ bytes: UnsafeRawBufferPointer) -> [Int64]? {
        var r = ProtobufReader(bytes)
        var out: [Int64] = []
        out.reserveCapacity(bytes.count / 2)
        var sum: Int64 = 0
        while !r.atEnd {
            guard let v = r.varint() else { return nil }
            sum = sum &+ zigzag(v)
            out.append(sum)
        }
        return out
    }
}
