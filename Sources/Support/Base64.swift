/// Base64 (RFC 4648 §4, with padding): how OSC 52 carries the text it puts on a terminal's clipboard.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let b = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((b.count + 2) / 3 * 4)
        var i = 0
        while i < b.count {
            let n = min(3, b.count - i)
            let v = UInt32(b[i]) << 16 | UInt32(n > 1 ? b[i + 1] : 0) << 8 | UInt32(n > 2 ? b[i + 2] : 0)
            for k in 0..<4 {
                out.append(k <= n ? alphabet[Int(v >> (18 - 6 * UInt32(k)) & 63)] : UInt8(ascii: "="))
            }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
