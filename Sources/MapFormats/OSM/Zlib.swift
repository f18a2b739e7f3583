import CZlib

/// zlib's inflate: the compressed blobs of OSM PBF files, gzip-compressed tiles and directories.
public enum Zlib {
    /// The bytes of a gzip (RFC 1952) or zlib (RFC 1950) stream, whichever it is, or nil when it is
    /// neither, is damaged, or would inflate past `limit` bytes.
    public static func inflate(gzipOrZlib input: UnsafeRawBufferPointer, limit: Int) -> [UInt8]? {
        // 15 window bits + 32: detect the gzip or zlib header.
        inflate(input, windowBits: 15 + 32, limit: limit)
    }

    /// The bytes of a raw deflate stream (RFC 1951, as a zip entry holds it), nil as `inflate` says.
    public static func inflate(raw input: UnsafeRawBufferPointer, limit: Int) -> [UInt8]? {
        inflate(input, windowBits: -15, limit: limit)
    }

    private static func inflate(_ input: UnsafeRawBufferPointer, windowBits: Int32, limit: Int) -> [UInt8]? {
        guard let base = input.baseAddress, input.count > 0 else { return nil }
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        var out = [UInt8](repeating: 0, count: min(limit, max(4096, input.count * 4)))
        var produced = 0
        while true {
            if produced == out.count {
                guard out.count < limit else { return nil }
                out += [UInt8](repeating: 0, count: min(limit, out.count * 2) - out.count)
            }
            let status = out.withUnsafeMutableBytes { o -> Int32 in
                stream.next_out = o.baseAddress?.assumingMemoryBound(to: Bytef.self).advanced(by: produced)
                stream.avail_out = uInt(o.count - produced)
                let s = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced = o.count - Int(stream.avail_out)
                return s
            }
            if status == Z_STREAM_END { break }
            guard status == Z_OK else { return nil }
        }
        out.removeSubrange(produced...)
        return out
    }

    /// `input` as a zlib stream (RFC 1950), at `level` (1 fastest … 9, zlib's best, the default); nil if
    /// zlib fails.
    public static func deflate(_ input: [UInt8], level: Int32 = Z_BEST_COMPRESSION) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: Int(compressBound(uLong(input.count))))
        var outLength = uLongf(out.count)
        let status = out.withUnsafeMutableBytes { o in
            input.withUnsafeBytes { i in
                compress2(
                    o.baseAddress?.assumingMemoryBound(to: Bytef.self), &outLength,
                    i.baseAddress?.assumingMemoryBound(to: Bytef.self),
                    uLong(input.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(outLength)...)
        return out
    }

    /// `input` as a gzip stream (RFC 1952; 15 window bits + 16 ask deflate for the gzip wrapper), at
    /// zlib's best compression; nil if zlib fails.
    public static func gzip(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        var input = input
        let status = input.withUnsafeMutableBytes { i in
            out.withUnsafeMutableBytes { o in
                stream.next_in = i.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(o.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }

    /// The bytes of a zlib stream (RFC 1950) that inflate to exactly `size` bytes (at most `limit`), or nil.
    public static func inflate(_ input: UnsafeRawBufferPointer, size: Int, limit: Int = 64 << 20) -> [UInt8]? {
        guard size >= 0, size <= limit, let base = input.baseAddress else { return nil }
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
