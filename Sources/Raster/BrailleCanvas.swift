import Support

/// A grid of 2×4-dot braille cells with an ink per cell (ratatui's braille grid:
/// `pattern |= 1 << bit(x % 2, y % 4)`, glyph U+2800 + pattern, dots 1-2-3-7 left, 4-5-6-8 right).
///
/// An ink is the caller's name for what drew a dot (the Viewer's style table gives each map layer
/// one); where two inks share a cell the higher one wins, so inks are numbered by priority. A tag is
/// the caller's name for the thing being drawn (a feature): each cell keeps the tag of its highest
/// ink when that ink was tagged, the last drawn among equals, so that a cell can be asked what was
/// drawn there. (Untagged dots of an ink above the tagged ones, such as the circle's outline, must come
/// after them: the cell's tag is not taken back from what drew below them.)
public struct BrailleCanvas: Sendable {
    /// Cells across.
    public let cols: Int
    /// Cells down.
    public let rows: Int
    /// Dots across (2 per cell).
    public var widthDots: Int { cols * 2 }
    /// Dots down (4 per cell).
    public var heightDots: Int { rows * 4 }
    /// The dot pattern of each cell (bit i = braille dot i+1).
    public private(set) var patterns: [UInt8]
    /// The ink of each cell: the highest ink of the dots set in it (0: none).
    public private(set) var inks: [UInt8]
    /// What the dots set now belong to (0: nothing to remember).
    public var tag: UInt32 = 0
    /// The tag of what set each cell's highest ink, where that was tagged (0: none).
    public private(set) var tags: [UInt32]

    /// Bit of the dot at (x, y) inside a cell, in the Unicode braille numbering.
    static let bits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]

    /// An empty canvas.
    public init(cols: Int, rows: Int) {
        self.cols = max(0, cols)
        self.rows = max(0, rows)
        patterns = Array(repeating: 0, count: self.cols * self.rows)
        inks = Array(repeating: 0, count: self.cols * self.rows)
        tags = Array(repeating: 0, count: self.cols * self.rows)
    }

    /// Sets the dot at (x, y) in `ink` (ignored outside the canvas). For a few dots (markers, tests):
    /// lines set theirs through `withDots`.
    public mutating func set(x: Int, y: Int, ink: UInt8) {
        withDots { $0.set(x: x, y: y, ink: ink) }
    }

    /// `bits[y % 4][x % 2]` worked out: dots 1–3 and 4–6 are bits 0–2 and 3–5, the bottom row 6 and 7.
    @inline(__always)
    static func bit(_ x: Int, _ y: Int) -> UInt8 {
        let dx = x & 1
        let dy = y & 3
        return dy == 3 ? UInt8(0x40 << dx) : UInt8(1 << (dy + 3 * dx))
    }

    /// The canvas's cells through pointers, for the dots of a whole line (one check of the arrays a
    /// line, not one a dot).
    struct Dots {
        let patterns: UnsafeMutablePointer<UInt8>
        let inks: UnsafeMutablePointer<UInt8>
        let tags: UnsafeMutablePointer<UInt32>
        let cols: Int
        let rows: Int
        let tag: UInt32

        /// `set(x:y:ink:)` through the pointers.
        @inline(__always)
        func set(x: Int, y: Int, ink: UInt8) {
            guard x >= 0, y >= 0, x < cols * 2, y < rows * 4 else { return }
            let i = (y >> 2) * cols + (x >> 1)
            patterns[i] |= BrailleCanvas.bit(x, y)
            let below = inks[i]
            if ink > below { inks[i] = ink }
            if tag != 0 && ink >= below { tags[i] = tag }
        }
    }

    /// Runs `body` with the cells through pointers (not at all on an empty canvas).
    @inline(__always)
    mutating func withDots(_ body: (Dots) -> Void) {
        let (cols, rows, tag) = (self.cols, self.rows, self.tag)
        patterns.withUnsafeMutableBufferPointer { p in
            inks.withUnsafeMutableBufferPointer { k in
                tags.withUnsafeMutableBufferPointer { t in
                    guard let p = p.baseAddress, let k = k.baseAddress, let t = t.baseAddress else { return }
                    body(Dots(patterns: p, inks: k, tags: t, cols: cols, rows: rows, tag: tag))
                }
            }
        }
    }

    /// The pattern of a cell.
    @inlinable
    public func pattern(col: Int, row: Int) -> UInt8 { patterns[row * cols + col] }

    /// The ink of a cell (0 when no dot is set).
    @inlinable
    public func ink(col: Int, row: Int) -> UInt8 { inks[row * cols + col] }

    /// The dot a position in dots falls in: its floor, except that a position a hair below a dot
    /// boundary counts as on it. After a pan of whole cells the projection may give 55.9999999 where,
    /// seen from the old view, it gave exactly 116: both must land on the same dot of the map.
    public static func dot(_ v: Double) -> Int {
        guard v.isFinite, abs(v) < 1e15 else { return v > 0 ? Int.max / 2 : Int.min / 2 }
        return Int((v + 1e-6).rounded(.down))
    }

    /// Draws a segment between two points in dots: one dot per dot column (or row, if steeper), at the
    /// segment's height at that column's centre, only over the part inside the canvas (Liang–Barsky).
    ///
    /// Unlike Bresenham stepped from a clipped end, which dots are set depends only on the segment,
    /// not on where the screen edge cut it: after a pan the picture is the old one moved, dot for dot.
    /// `every` > 1 draws a dotted line: the dot at index i along the main axis is set when i + `phase`
    /// is a multiple of `every` (pass the world position of the screen's edge to pin the dots to the map);
    /// `phaseY`, when given, is the phase of lines that run along y.
    public mutating func line(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, ink: UInt8, every: Int = 1, on: Int = 1, phase: Int = 0,
        phaseY: Int? = nil
    ) {
        let m = 1.0
        guard
            let (a, b) = LineClipper.clip(
                x0, y0, x1, y1, minX: -m, minY: -m, maxX: Double(widthDots) + m, maxY: Double(heightDots) + m)
        else { return }
        let dx = x1 - x0
        let dy = y1 - y0
        let alongX = abs(dx) >= abs(dy)
        // Main axis u, cross axis v.
        let (u0, v0, u1, ua, ub) = alongX ? (x0, y0, x1, a.x, b.x) : (y0, x0, y1, a.y, b.y)
        let slope = alongX ? (dx == 0 ? 0 : dy / dx) : dx / dy
        let lo = Self.dot(min(ua, ub))
        let hi = Self.dot(max(ua, ub))
        guard lo <= hi else { return }
        let uMin = min(u0, u1)
        let uMax = max(u0, u1)
        let step = max(1, every)
        let p = alongX ? phase : phaseY ?? phase
        withDots { dots in
            if on > 1 && on < step {
                // Dashed: `on` dots of every `step`, counted from the world's corner like the dots.
                for i in lo...hi where ((i + p) % step + step) % step < on {
                    let u = min(max(Double(i) + 0.5, uMin), uMax)
                    let j = Self.dot(v0 + slope * (u - u0))
                    if alongX { dots.set(x: i, y: j, ink: ink) } else { dots.set(x: j, y: i, ink: ink) }
                }
                return
            }
            // Dotted: start at the first index the pattern sets, then step over the skipped ones.
            let offset = ((lo + p) % step + step) % step  // how far lo is past a set dot
            var i = offset == 0 ? lo : lo + step - offset
            while i <= hi {
                // The column's centre, kept on the segment so that its end dots are its end points.
                let u = min(max(Double(i) + 0.5, uMin), uMax)
                let j = Self.dot(v0 + slope * (u - u0))
                if alongX { dots.set(x: i, y: j, ink: ink) } else { dots.set(x: j, y: i, ink: ink) }
                i += step
            }
        }
    }

    /// The braille glyph of a pattern.
    public static func brailleGlyph(_ pattern: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0x2800 + UInt32(pattern)) ?? " "
    }
}
