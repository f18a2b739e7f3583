import Glibc
import Support

/// What a file's first bytes look like, for the line that says no reader knows it: its start as text
/// (shown safely) when it reads as text, a kind named by its signature (PNG, PDF, a ZIP…), or its first
/// bytes in hex.
enum FirstBytes {
    /// `text: "hello world"`, `a PNG image`, `binary: 7f 45 4c 46 02 01 01 00`, or why it cannot be read.
    static func describe(file: String) -> String {
        let fd = open(file, O_RDONLY)
        guard fd >= 0 else { return "it cannot be read" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 64) }
        guard got > 0 else { return "it is empty" }
        return describe(Array(buffer[0..<got]))
    }

    /// What `bytes` (a file's first) look like.
    static func describe(_ bytes: [UInt8]) -> String {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("%PDF".utf8), "a PDF document"), ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
            ([0x1F, 0x8B], "gzip-compressed data"), ([0x7F, 0x45, 0x4C, 0x46], "a program (ELF)"),
            (Array("SQLite format 3".utf8), "an SQLite database"),
        ]
        if let kind = signatures.first(where: { bytes.starts(with: $0.0) }) {
            return "its first bytes look like \(kind.1)"
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let printable = text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" || $0 == "\t" || $0 == "\r" }.count
        if !text.contains("\u{FFFD}"), printable * 10 >= text.unicodeScalars.count * 9 {
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let start = SafeText.forScreen(line).prefix(columns: 40)
            return "its first bytes look like text: \"\(start)\(line.columns > 40 ? "…" : "")\""
        }
        return "its first bytes look like binary data: "
            + bytes.prefix(8).map {
                String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
            }
            .joined(separator: " ")
    }
}
