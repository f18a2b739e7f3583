import Support

/// The kitty graphics protocol (sw.kovidgoyal.net/kitty/graphics-protocol; kitty, WezTerm, Ghostty,
/// Konsole): pictures sent as APC sequences, `ESC _ G keys ; base64 payload ESC \`, a large payload in
/// chunks of at most 4096 bytes (`m=1` on all but the last).
public enum KittyGraphics {
    /// The question a start asks (`a=q`: a 1 × 1 RGB picture, id 31, not kept): a terminal that draws
    /// kitty's pictures answers `ESC _ G i=31 ; OK ESC \`; one that does not, nothing (the device
    /// attributes question sent behind it says so, at once).
    public static let query = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)

    /// True for an answer to `query` that says the terminal draws the pictures (the APC's text after `ESC _`).
    public static func saysOK(_ answer: String) -> Bool {
        answer.hasPrefix("Gi=31") && answer.hasSuffix(";OK")
    }

    /// The command `keys` with `payload`, base64, in APC sequences of at most 4096 payload bytes each
    /// (the first carries the keys; `m=1` on all but the last).
    public static func chunked(keys: String, payload: [UInt8]) -> [UInt8] {
        let data = Array(Base64.encode(payload).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count + data.count / 4096 * 12 + keys.utf8.count + 16)
        var at = 0
        repeat {
            let end = min(data.count, at + 4096)
            let more = end < data.count ? 1 : 0
            out += Array("\u{1B}_G\(at == 0 ? keys + "," : "")m=\(more);".utf8)
            out += data[at..<end]
            out += [0x1B, 0x5C]
            at = end
        } while at < data.count
        return out
    }
}
