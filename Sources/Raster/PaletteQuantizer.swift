import Glibc

/// The xterm palette entry nearest an sRGB colour by CIE 1976 ΔE in L*a*b* (perceptual, so a dark
/// green photo pixel does not turn grey), over the 240 entries 16–255 whose values xterm fixes (the 16
/// ANSI colours are the terminal's to choose). A 32 × 32 × 32 table of the answers, made once, serves
/// fast lookups (5 bits a channel: at most 7 ΔE worse than the best, in the darks); `nearestExact`
/// searches all 240, for colours computed once a tile.
public enum PaletteQuantizer {
    /// The sRGB value of palette entry `i`: 16–255 as xterm's 256colres.pl sets them, 0–15 as xterm's
    /// defaults (the terminal's own choice: what a 16-colour picture is quantised against).
    public static func rgb(_ i: UInt8) -> (UInt8, UInt8, UInt8) {
        if i < 16 { return ansi[Int(i)] }
        if i >= 232 {
            let g = UInt8(8 + 10 * (Int(i) - 232))
            return (g, g, g)
        }
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        let n = max(0, Int(i) - 16)
        return (levels[n / 36], levels[(n / 6) % 6], levels[n % 6])
    }

    /// CIE L*a*b* (D65) of an sRGB colour (IEC 61966-2-1 to XYZ, then CIE 1976).
    public static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Double, Double, Double) {
        func linear(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let (lr, lg, lb) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047
        let y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116.0 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// ΔE (CIE 1976) between two sRGB colours.
    public static func deltaE(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Double {
        let (p, q) = (lab(a.0, a.1, a.2), lab(b.0, b.1, b.2))
        return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
    }

    /// The entry nearest `(r, g, b)`, searched over all 240 (what the table holds).
    public static func nearestExact(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let target = lab(r, g, b)
        var best: (UInt8, Double) = (16, .infinity)
        for (i, p) in paletteLab.enumerated() {
            let d =
                (p.0 - target.0) * (p.0 - target.0) + (p.1 - target.1) * (p.1 - target.1)
                + (p.2 - target.2) * (p.2 - target.2)
            if d < best.1 { best = (UInt8(16 + i), d) }
        }
        return best.0
    }

    /// The entry nearest `(r, g, b)` among those near it: the cube's entries within one level of the
    /// channels' bracketing levels (4 × 4 × 4) and the greys within three steps of its mean; measured
    /// against `nearestExact` on 100,000 random colours, 5 differ, by at most 1.8 ΔE. A tenth of the
    /// cost of searching all 240 (an image's colours are quantised a half-cell at a time).
    public static func nearestClose(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let t = labFast(r, g, b)
        var best: (Int, Double) = (16, .infinity)
        @inline(__always) func consider(_ i: Int) {
            let p = paletteLab[i - 16]
            let d = (p.0 - t.0) * (p.0 - t.0) + (p.1 - t.1) * (p.1 - t.1) + (p.2 - t.2) * (p.2 - t.2)
            if d < best.1 { best = (i, d) }
        }
        let (lr, lg, lb) = (cubeBelow[Int(r)], cubeBelow[Int(g)], cubeBelow[Int(b)])
        for i in max(0, lr - 1)...min(5, lr + 2) {
            for j in max(0, lg - 1)...min(5, lg + 2) {
                for k in max(0, lb - 1)...min(5, lb + 2) { consider(16 + i * 36 + j * 6 + k) }
            }
        }
        let grey = min(23, max(0, ((Int(r) + Int(g) + Int(b)) / 3 - 8) / 10))
        for k in max(0, grey - 3)...min(23, grey + 3) { consider(232 + k) }
        return UInt8(best.0)
    }

    /// Per channel value, the cube level at or below it (levels 0, 95, 135, 175, 215, 255).
    static let cubeBelow: [Int] = (0...255).map { v in [0, 95, 135, 175, 215, 255].lastIndex { $0 <= v } ?? 0 }

    /// `lab` through a table of the channels' linear values (no `pow` per colour).
    @inline(__always)
    static func labFast(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Double, Double, Double) {
        let (lr, lg, lb) = (linearTable[Int(r)], linearTable[Int(g)], linearTable[Int(b)])
        let x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047
        let y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883
        @inline(__always) func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116.0 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// sRGB channel values made linear (IEC 61966-2-1).
    static let linearTable: [Double] = (0...255).map { v in
        let s = Double(v) / 255
        return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    }

    /// The ANSI colour (of the first 8 or 16) nearest `(r, g, b)`, from a table like `nearest`'s.
    @inline(__always)
    public static func nearestANSI(_ r: UInt8, _ g: UInt8, _ b: UInt8, of count: Int) -> UInt8 {
        (count >= 16 ? ansi16Table : ansi8Table)[Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)]
    }

    static let ansi16Table: [UInt8] = ansiTable(16)
    static let ansi8Table: [UInt8] = ansiTable(8)
    static func ansiTable(_ count: Int) -> [UInt8] {
        (0..<32768).map { (k: Int) -> UInt8 in
            let r = UInt8((k >> 10) << 3 | 4)
            let g = UInt8(((k >> 5) & 31) << 3 | 4)
            let b = UInt8((k & 31) << 3 | 4)
            return nearestANSI(r, g, b, count: count)
        }
    }

    /// The two ANSI colours (of the first 8 or 16) whose mix comes nearest `(r, g, b)`, and how much of
    /// the second the mix takes (0–16 sixteenths): an ordered dither shows the second where its Bayer
    /// threshold is below that share (Yliluoma's "ordered dithering with a mixing plan", simplified:
    /// the best pair by the distance of the colour from their mix in sRGB, plus a tenth of the
    /// pair's own distance, so that a mix of far colours such as black and white is a last resort).
    @inline(__always)
    public static func ansiMix(_ r: UInt8, _ g: UInt8, _ b: UInt8, of count: Int) -> (UInt8, UInt8, Int) {
        let plan = (count >= 16 ? mix16Table : mix8Table)[Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)]
        return (UInt8(plan >> 8 & 0xF), UInt8(plan >> 4 & 0xF), Int(plan >> 12))
    }

    static let mix16Table: [UInt16] = mixTable(16)
    static let mix8Table: [UInt16] = mixTable(8)

    /// Per 5-bit colour, its mixing plan: share << 12 | first << 8 | second << 4.
    static func mixTable(_ count: Int) -> [UInt16] {
        let palette = ansi.prefix(count).map { (Double($0.0) / 255, Double($0.1) / 255, Double($0.2) / 255) }
        return (0..<32768).map { (k: Int) -> UInt16 in
            let c = (
                Double((k >> 10) << 3 | 4) / 255, Double(((k >> 5) & 31) << 3 | 4) / 255,
                Double((k & 31) << 3 | 4) / 255
            )
            var best: (cost: Double, p: Int, q: Int, share: Int) = (.infinity, 0, 0, 0)
            for p in 0..<count {
                for q in p..<count {
                    let (a, z) = (palette[p], palette[q])
                    let d = (z.0 - a.0, z.1 - a.1, z.2 - a.2)
                    let length = d.0 * d.0 + d.1 * d.1 + d.2 * d.2
                    let along = length == 0 ? 0 : ((c.0 - a.0) * d.0 + (c.1 - a.1) * d.1 + (c.2 - a.2) * d.2) / length
                    let share = Int((max(0, min(1, along)) * 16).rounded())
                    let t = Double(share) / 16
                    let m = (a.0 + d.0 * t - c.0, a.1 + d.1 * t - c.1, a.2 + d.2 * t - c.2)
                    let cost = m.0 * m.0 + m.1 * m.1 + m.2 * m.2 + 0.1 * length * t * (1 - t)
                    if cost < best.cost { best = (cost, p, q, share) }
                }
            }
            return UInt16(best.share) << 12 | UInt16(best.p) << 8 | UInt16(best.q) << 4
        }
    }

    /// The entry nearest `(r, g, b)`, from the table (the centre of the colour's 8 × 8 × 8 box).
    @inline(__always)
    public static func nearest(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        table[Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)]
    }

    /// xterm's default 16 colours (its `XTerm-col.ad`).
    static let ansi: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
        (0, 255, 255), (255, 255, 255),
    ]

    /// The ANSI colour (of the first `count`: 8 or 16) nearest `(r, g, b)` by ΔE.
    public static func nearestANSI(_ r: UInt8, _ g: UInt8, _ b: UInt8, count: Int) -> UInt8 {
        let target = lab(r, g, b)
        var best: (UInt8, Double) = (0, .infinity)
        for (i, p) in ansiLab.prefix(count).enumerated() {
            let d =
                (p.0 - target.0) * (p.0 - target.0) + (p.1 - target.1) * (p.1 - target.1)
                + (p.2 - target.2) * (p.2 - target.2)
            if d < best.1 { best = (UInt8(i), d) }
        }
        return best.0
    }

    static let ansiLab: [(Double, Double, Double)] = ansi.map { lab($0.0, $0.1, $0.2) }

    static let paletteLab: [(Double, Double, Double)] = (16...255).map { i in
        let c = rgb(UInt8(i))
        return lab(c.0, c.1, c.2)
    }

    static let table: [UInt8] = (0..<32768).map { k in
        let (r, g, b) = (UInt8((k >> 10) << 3 | 4), UInt8(((k >> 5) & 31) << 3 | 4), UInt8((k & 31) << 3 | 4))
        return nearestExact(r, g, b)
    }
}

/// An image shown in terminal cells as `▀` half blocks (issue 47): each cell two pixels tall, the
/// upper half the foreground colour, the lower half the background (`MapRender`'s imagery samples the
/// halves).
public enum HalfBlocks {
    /// The glyph: the upper half block.
    public static let glyph: Unicode.Scalar = "▀"
}
