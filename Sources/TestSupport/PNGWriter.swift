import MapFormats

/// Writes RGBA PNG images for tests (PNG 1.2, ISO/IEC 15948): the pixels in zlib's stored (uncompressed)
/// blocks, so that no compressor is needed, each row with filter 0; chunks with their CRC-32.
public enum PNGWriter {
    /// A `width` × `height` PNG of `rgba` (4 bytes a pixel, rows top to bottom).
    public static func png(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (width * 4 + 1))
        for y in 0..<height {
            raw.append(0)  // filter type None
            raw += rgba[(y * width * 4)..<((y + 1) * width * 4)]
        }
        // zlib (RFC 1950): header, stored deflate blocks of at most 65,535 bytes (RFC 1951 §3.2.4), Adler-32.
        var z: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65_535, raw.count - at)
            z.append(at + n == raw.count ? 1 : 0)
            z += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            z += raw[at..<(at + n)]
            at += n
        } while at < raw.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        z += bigEndian(b << 16 | a)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", z)
            + chunk("IEND", [])
    }

    /// An image of one colour.
    public static func png(width: Int, height: Int, colour: (UInt8, UInt8, UInt8)) -> [UInt8] {
        png(
            width: width, height: height,
            rgba: Array([[colour.0, colour.1, colour.2, 255]].joined()) * (width * height))
    }

    static func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(CRC32.checksum(body))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}

extension Array {
    /// The array repeated `n` times.
    static func * (array: [Element], n: Int) -> [Element] {
        var out: [Element] = []
        out.reserveCapacity(array.count * n)
        for _ in 0..<n { out += array }
        return out
    }
}
