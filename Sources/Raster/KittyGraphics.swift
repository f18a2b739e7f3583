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

    /// A picture's id: the imagery's.
    public static let imageryID = 47

    /// The sequences that show a `width` × `height` RGBA picture (`zlibRGBA`: its rows, zlib-compressed,
    /// RFC 1950) as picture `id`, scaled over `cols` × `rows` cells from the cursor, under the text and
    /// under cells with a background of their own (`z` below −2³⁰), the cursor not moved (`C=1`), no
    /// answer (`q=2`). A picture sent again with the same id replaces the one shown.
    public static func display(
        zlibRGBA payload: [UInt8], width: Int, height: Int, cols: Int, rows: Int, id: Int = imageryID
    ) -> [UInt8] {
        let data = Array(Base64.encode(payload).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count + data.count / 4096 * 12 + 128)
        var at = 0
        repeat {
            let end = min(data.count, at + 4096)
            let more = end < data.count ? 1 : 0
            let keys =
                at == 0
                ? "a=T,f=32,o=z,s=\(width),v=\(height),c=\(cols),r=\(rows),i=\(id),z=-1073741825,C=1,q=2,m=\(more)"
                : "m=\(more)"
            out += Array("\u{1B}_G\(keys);".utf8)
            out += data[at..<end]
            out += [0x1B, 0x5C]
            at = end
        } while at < data.count
        return out
    }

    /// The sequence that removes picture `id` and its data from the terminal.
    public static func delete(id: Int = imageryID) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }
}
