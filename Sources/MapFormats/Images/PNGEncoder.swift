/// Writes RGBA PNG images (PNG 1.2, ISO/IEC 15948): 8 bits a channel, each row with the Sub filter (a
/// byte less the one four before it: smooth rows, such as elevation tiles', become runs of small
/// numbers), the rows deflated by zlib; chunks with their CRC-32.
public enum PNGEncoder {
    /// A `width` × `height` PNG of `rgba` (4 bytes a pixel, rows top to bottom), at zlib level `level`;
    /// nil if zlib fails.
    public static func png(width: Int, height: Int, rgba: [UInt8], level: Int32 = 6) -> [UInt8]? {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return nil }
        let stride = width * 4
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        rgba.withUnsafeBufferPointer { src in
            raw.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let (from, to) = (y * stride, y * (stride + 1))
                    out[to] = 1  // filter type Sub
                    for i in 0..<stride {
                        out[to + 1 + i] = src[from + i] &- (i >= 4 ? src[from + i - 4] : 0)
                    }
                }
            }
        }
        guard let z = Zlib.deflate(raw, level: level) else { return nil }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", z)
            + chunk("IEND", [])
    }

    static func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(CRC32.checksum(body))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
