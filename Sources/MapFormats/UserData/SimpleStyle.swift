/// The colours of mapbox's simplestyle-spec 1.1.0 (`stroke`, `fill`, `marker-color`: `#rrggbb` or
/// `#rgb`) as the nearest colour of xterm's 6 × 6 × 6 cube (palette entries 16–231), which terminals of
/// 256 colours show alike.
public enum SimpleStyle {
    /// The cube levels of each channel (xterm's 256-colour palette).
    static let levels = [0, 95, 135, 175, 215, 255]

    /// Index 0–215 in the cube of `#rrggbb` or `#rgb` (nil for anything else).
    public static func cubeIndex(_ text: String) -> Int? {
        var hex = Array(text.utf8)
        guard hex.first == UInt8(ascii: "#") else { return nil }
        hex.removeFirst()
        if hex.count == 3 { hex = hex.flatMap { [$0, $0] } }
        guard hex.count == 6, let v = Int(String(decoding: hex, as: UTF8.self), radix: 16) else { return nil }
        let (r, g, b) = ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)
        func level(_ c: Int) -> Int { levels.indices.min { abs(levels[$0] - c) < abs(levels[$1] - c) } ?? 0 }
        return 36 * level(r) + 6 * level(g) + level(b)
    }

    /// The RGB of cube entry `i`.
    public static func rgb(_ i: Int) -> (Int, Int, Int) { (levels[i / 36 % 6], levels[i / 6 % 6], levels[i % 6]) }
}
