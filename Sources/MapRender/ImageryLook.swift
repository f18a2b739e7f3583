import Glibc
import Raster

/// How imagery's half-cells show in a colour mode (issue 47): truecolour sends each colour as it is;
/// 256 colours the palette entry nearest by ΔE (`PaletteQuantizer.nearestClose`; no dithering, so that
/// a flat colour stays flat and each cell is its own nearest); 16 and 8 colours mix two colours with a
/// 4 × 4 Bayer matrix over the half-cells (fixed to the screen), as their few colours need; without colour, a
/// ramp of glyphs by luminance. Where the map draws over imagery, the cell's background is a halo: the
/// pixels darkened where they are light, lightened where dark, so that a line or a name reads on a
/// photograph.
struct ImageryLook {
    let mode: ColorMode
    let theme: Theme
    /// ASCII glyphs only (LANG=C, `m`): a cell is one colour, the mean of its halves, as a blank.
    var ascii = false

    /// The ramp without colour, sparse to dense (a light pixel is dense on a dark terminal).
    static let ramp: [Unicode.Scalar] = [" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"]
    /// The lower half block, for a cell whose upper half has no imagery.
    static let lowerHalf: Unicode.Scalar = "▄"

    /// Bayer's 4 × 4 ordered-dither thresholds (Bayer 1973), 0–15.
    static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// A colour (`1 << 24 | rgb`) of the half-cell at column `x`, half row `y`, in the mode.
    func color(_ rgb: UInt32, x: Int, y: Int) -> PaletteColor {
        let (r, g, b) = Self.channels(rgb)
        switch mode {
        case .ansi8, .ansi16:
            // The mix of two colours nearest this one, the second shown where the threshold is below its share.
            let (first, second, share) = PaletteQuantizer.ansiMix(r, g, b, of: mode == .ansi8 ? 8 : 16)
            return PaletteColor(Self.bayer[(y & 3) * 4 + (x & 3)] < share ? second : first)
        case .truecolor:
            return PaletteColor(red: r, green: g, blue: b)
        default:
            return PaletteColor(PaletteQuantizer.nearestClose(r, g, b))
        }
    }

    /// The cell of bare imagery: `▀` in the upper half's colour over the lower's (`▄` when only the lower
    /// has imagery); without colour, the ramp's glyph for the two halves' luminance.
    func cell(upper: UInt32, lower: UInt32, col: Int, row: Int) -> Cell {
        guard mode.hasColor else {
            let l = (Self.luminance(upper != 0 ? upper : lower) + Self.luminance(lower != 0 ? lower : upper)) / 2
            let level = theme == .light ? 1 - l : l
            return Cell(glyph: Self.ramp[min(Self.ramp.count - 1, Int(level * Double(Self.ramp.count)))])
        }
        if ascii {
            let (u, l) = (upper != 0 ? upper : lower, lower != 0 ? lower : upper)
            let ((ur, ug, ub), (lr, lg, lb)) = (Self.channels(u), Self.channels(l))
            let (r, g, b) = (
                (UInt32(ur) + UInt32(lr) + 1) / 2, (UInt32(ug) + UInt32(lg) + 1) / 2, (UInt32(ub) + UInt32(lb) + 1) / 2
            )
            let mean = 1 << 24 | r << 16 | g << 8 | b
            return Cell(glyph: " ", style: CellStyle(background: color(mean, x: col, y: row * 2)))
        }
        if upper == 0 {
            return Cell(glyph: Self.lowerHalf, style: CellStyle(foreground: color(lower, x: col, y: row * 2 + 1)))
        }
        let background = lower == 0 ? nil : color(lower, x: col, y: row * 2 + 1)
        let foreground = color(upper, x: col, y: row * 2)
        // Two halves alike as the terminal shows them (the same entry, or in truecolour the same colour):
        // a blank in their colour, a third of the bytes, and erasable in runs.
        if let background, background == foreground {
            return Cell(glyph: " ", style: CellStyle(background: background))
        }
        return Cell(
            glyph: HalfBlocks.glyph, style: CellStyle(foreground: foreground, background: background))
    }

    /// The background under what the map draws over imagery: the cell's mean colour darkened by 55 %
    /// where it is light (relative luminance above 0.4), else lightened 45 % of the way to white.
    /// With `faint` (the grid: it must not hide the picture), the cell's mean colour as it is.
    func halo(upper: UInt32, lower: UInt32, faint: Bool = false) -> PaletteColor? {
        guard mode.hasColor else { return nil }
        let (u, l) = (upper != 0 ? upper : lower, lower != 0 ? lower : upper)
        let (ur, ug, ub) = Self.channels(u)
        let (lr, lg, lb) = Self.channels(l)
        let mean = (Double(ur) / 2 + Double(lr) / 2, Double(ug) / 2 + Double(lg) / 2, Double(ub) / 2 + Double(lb) / 2)
        let dark = Self.luminance(u) + Self.luminance(l) > 0.8
        if mode == .ansi8 || mode == .ansi16 { return faint ? color(u, x: 0, y: 0) : PaletteColor(dark ? 0 : 7) }
        func toned(_ v: Double) -> UInt8 {
            UInt8(max(0, min(255, (faint ? v : dark ? v * 0.45 : v + (255 - v) * 0.45).rounded())))
        }
        return color(
            1 << 24 | UInt32(toned(mean.0)) << 16 | UInt32(toned(mean.1)) << 8 | UInt32(toned(mean.2)), x: 0, y: 0)
    }

    /// `cell` (a map glyph or text over imagery) on the halo of the imagery's pixels (`faint`: on the
    /// pixels' own mean), in a colour that reads on it (without colour, as it is).
    func haloed(_ cell: Cell, upper: UInt32, lower: UInt32, faint: Bool = false) -> Cell {
        guard let halo = halo(upper: upper, lower: lower, faint: faint) else { return cell }
        var out = cell
        out.style.background = halo
        out.style.foreground = Self.legible(cell.style.foreground, on: halo)
        return out
    }

    /// `foreground`, or black or white where it would not read on `halo` (relative luminances less
    /// than 0.3 apart; the terminal's default foreground counts as unknown, so it is replaced).
    static func legible(_ foreground: PaletteColor?, on halo: PaletteColor) -> PaletteColor {
        let h = luminance(halo.rgb)
        if let f = foreground, abs(luminance(f.rgb) - h) >= 0.3 { return f }
        return h > 0.4 ? PaletteColor(16) : PaletteColor(231)
    }

    static func channels(_ rgb: UInt32) -> (UInt8, UInt8, UInt8) {
        (UInt8(rgb >> 16 & 0xFF), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF))
    }

    /// Relative luminance (WCAG 2's, from sRGB made linear), 0–1.
    static func luminance(_ rgb: UInt32) -> Double { luminance(channels(rgb)) }

    static func luminance(_ c: (UInt8, UInt8, UInt8)) -> Double {
        func linear(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2)
    }
}
