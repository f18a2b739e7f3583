import CZlib

/// zlib's inflate for the compressed blobs of OSM PBF files.
enum Zlib {
    /// The bytes of a zlib stream (RFC 1950) that inflate to exactly `size` bytes, or nil.
    static func inflate(_ input: UnsafeRawBufferPointer, size: Int) -> [UInt8]? {
        guard size >= 0, size <= 64 << 20, let base = input.baseAddress else { return nil }
        var out = [UInt8](repeating: 0, count: max(size, 1))
        var outLength = uLongf(size)
        let status = out.withUnsafeMutableBytes { o in
            uncompress(
                o.baseAddress?.assumingMemoryBound(to: Bytef.self), &outLength,
                base.assumingMemoryBound(to: Bytef.self),
                uLong(input.count))
        }
        guard status == Z_OK, Int(outLength) == size else { return nil }
        if size == 0 { out.removeAll() }
        return out
    }
}
