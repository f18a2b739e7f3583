/// Sixel, the DEC VT330/VT340 picture format (foot, mlterm, xterm `-ti vt340`, WezTerm, Windows
/// Terminal; VT330/VT340 Programmer Reference Manual, chapter 14; xterm's ctlseqs): `DCS P1;P2;P3 q`,
/// colour registers `#n;2;r;g;b` (percent), then bands of six pixel rows, one pass per colour:
/// `#n` and one character a column (`?` + the six bits), `!count` for runs, `$` back to the band's
/// start, `-` to the next band; `ESC \` ends it. Pixels of no colour are left as they were (P2 = 1).
public enum SixelEncoder {
    /// The palette: 6 reds × 7 greens × 6 blues (252 registers; the eye tells greens apart best).
    static let levels = (red: 6, green: 7, blue: 6)

    /// The Bayer 4 × 4 threshold matrix, as the 16 and 8 colour imagery uses: an ordered dither keeps
    /// a flat field flat and a picture the same from frame to frame (error diffusion does neither).
    static let bayer: [Double] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map { ($0 + 0.5) / 16 - 0.5 }

    /// The sixel sequence of a `width` × `height` RGBA picture (rows top to bottom; a pixel of alpha
    /// below 128 is left out), drawn from the cursor's cell, the cursor then where the picture ends.
    public static func encode(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return [] }
        let indexes = quantize(rgba: rgba, width: width, height: height)
        var used = [Bool](repeating: false, count: 256)
        for i in indexes where i != 255 { used[Int(i)] = true }
        // P2 = 1: pixels of no colour keep what was there; `"1;1;W;H`: square pixels, the size.
        var out = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        for register in 0..<252 where used[register] {
            let (r, g, b) = rgb(register)
            out += Array("#\(register);2;\(r * 100 / 255);\(g * 100 / 255);\(b * 100 / 255)".utf8)
        }
        var bits = [UInt8](repeating: 0, count: 252 * width)
        var span = [(Int, Int)](repeating: (Int.max, -1), count: 252)
        for top in stride(from: 0, to: height, by: 6) {
            var colours: [Int] = []
            for y in top..<min(height, top + 6) {
                let bit = UInt8(1 << (y - top))
                for x in 0..<width {
                    let i = Int(indexes[y * width + x])
                    guard i != 255 else { continue }
                    if span[i].1 < 0 { colours.append(i) }
                    bits[i * width + x] |= bit
                    span[i] = (min(span[i].0, x), max(span[i].1, x))
                }
            }
            for (n, colour) in colours.enumerated() {
                out += Array("#\(colour)".utf8)
                band(bits, row: colour * width, through: span[colour].1, into: &out)
                out.append(n == colours.count - 1 ? 0x2D : 0x24)  // `-` after the last colour, else `$`
                for x in span[colour].0...span[colour].1 { bits[colour * width + x] = 0 }
                span[colour] = (Int.max, -1)
            }
            if colours.isEmpty { out.append(0x2D) }
        }
        return out + [0x1B, 0x5C]
    }

    /// One colour's pass over a band: a character a column up to `last` (runs of four and more as
    /// `!count`).
    static func band(_ bits: [UInt8], row: Int, through last: Int, into out: inout [UInt8]) {
        var x = 0
        while x <= last {
            let v = bits[row + x]
            var run = 1
            while x + run <= last, bits[row + x + run] == v { run += 1 }
            let ch = 0x3F + v
            if run >= 4 {
                out += Array("!\(run)".utf8)
                out.append(ch)
            } else {
                out += [UInt8](repeating: ch, count: run)
            }
            x += run
        }
    }

    /// Each pixel's register (255: left out), dithered through the Bayer matrix.
    static func quantize(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 255, count: width * height)
        let steps = (Double(levels.red - 1), Double(levels.green - 1), Double(levels.blue - 1))
        for y in 0..<height {
            for x in 0..<width {
                let p = (y * width + x) * 4
                guard rgba[p + 3] >= 128 else { continue }
                let t = bayer[(y & 3) * 4 + (x & 3)]
                func level(_ v: UInt8, _ n: Double) -> Int { Int(max(0, min(n, (Double(v) / 255 * n + t).rounded()))) }
                let r = level(rgba[p], steps.0)
                let g = level(rgba[p + 1], steps.1)
                let b = level(rgba[p + 2], steps.2)
                out[y * width + x] = UInt8((r * levels.green + g) * levels.blue + b)
            }
        }
        return out
    }

    /// A register's colour.
    static func rgb(_ register: Int) -> (Int, Int, Int) {
        let b = register % levels.blue
        let g = register / levels.blue % levels.green
        let r = register / (levels.blue * levels.green)
        return (
            r * 255 / (levels.red - 1), g * 255 / (levels.green - 1), b * 255 / (levels.blue - 1)
        )
    }
}
