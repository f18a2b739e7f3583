/// Text in Windows-1252 (the single-byte encoding of Western European Windows, which Excel and older
/// tools write CSV in; Latin-1's printable characters plus 27 in 0x80–0x9F), made UTF-8. Its table is
/// the WHATWG Encoding Standard's index for windows-1252 (encoding.spec.whatwg.org, "index-windows-1252").
enum Windows1252 {
    /// The code points of bytes 0x80–0x9F (the five the encoding leaves undefined are U+FFFD).
    static let high: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD,
        0x017D, 0xFFFD, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    /// `read` of `bytes`; when it fails and `bytes` are not UTF-8, `read` of them made UTF-8 from
    /// Windows-1252 (a legacy file with no encoding declared: Latin-1's printable characters are the
    /// same), its notes saying so. When that fails too, the first failure, with how to convert the file.
    static func readingLegacyText(
        _ bytes: UnsafeBufferPointer<UInt8>, _ read: (UnsafeBufferPointer<UInt8>) throws(MapDataError) -> UserLayerData
    ) throws(MapDataError) -> UserLayerData {
        do {
            return try read(bytes)
        } catch {
            guard String(validating: bytes, as: UTF8.self) == nil else { throw error }
            let text = utf8(bytes)
            guard
                var data = try? text.withUnsafeBufferPointer({ b throws(MapDataError) in try read(b) })
            else {
                var said = error
                if case .syntax(let line, let column, let why) = error.kind {
                    said.kind = .syntax(
                        line: line, column: column,
                        why + " (not UTF-8: if the file is Latin-1, iconv -f latin1 -t utf-8)")
                }
                throw said
            }
            data.notes.readAs = "Windows-1252"
            return data
        }
    }

    /// `bytes` as UTF-8.
    static func utf8(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for b in bytes {
            if b < 0x80 {
                out.append(b)
                continue
            }
            let v = b < 0xA0 ? high[Int(b) - 0x80] : UInt32(b)
            if v < 0x800 {
                out.append(UInt8(0xC0 | v >> 6))
                out.append(UInt8(0x80 | v & 0x3F))
            } else {
                out.append(UInt8(0xE0 | v >> 12))
                out.append(UInt8(0x80 | v >> 6 & 0x3F))
                out.append(UInt8(0x80 | v & 0x3F))
            }
        }
        return out
    }
}
