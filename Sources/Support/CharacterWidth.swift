/// How many columns a terminal gives a character: the C library's `wcwidth` (glibc, which ncurses and
/// tmux ask) brought up to Unicode 15's East Asian Width and emoji presentation tables where glibc lags
/// (`Tools/make_width_table.py` makes the table from both). A character whose width terminals disagree
/// on, or that neither table knows, has no width here: it is shown as a placeholder, so that every row
/// of a frame is exactly as wide as the screen on any terminal. Written into the program rather than
/// asked of the C library at run time, whose answer depends on the locale: `render` must print the
/// same screen whatever `LANG` is.
public enum CharacterWidth {
    /// Columns of `scalar`: 0 (a combining mark), 1 or 2; nil when unknown (or a control character).
    @inlinable
    public static func of(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }
        let kind = runKind(v)
        return kind == 3 ? nil : Int(kind)
    }

    /// The class of the run `v` falls in (a binary search of `runs`).
    @usableFromInline
    static func runKind(_ v: UInt32) -> UInt32 {
        let runs = Self.runs
        var lo = 0
        var hi = runs.count - 1
        // The last run whose start is at or below v (the first starts at 0).
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if runs[mid] >> 2 <= v { lo = mid } else { hi = mid - 1 }
        }
        return runs[lo] & 3
    }

    /// Columns of a character as a cell shows it: its first scalar's (the marks that follow add none).
    @inlinable
    public static func of(_ character: Character) -> Int? {
        guard let first = character.unicodeScalars.first else { return 0 }
        return of(first)
    }
}

extension StringProtocol {
    /// The columns the text takes on a terminal once shown (`SafeText.forScreen`): each character its
    /// first scalar's width, a placeholder's 1, a lone combining mark's 1 (it is shown on a dotted circle).
    @inlinable
    public var columns: Int {
        if let plain = SafeText.plainColumns(self) { return plain }
        var n = 0
        for ch in self { n += SafeText.shownColumns(ch) }
        return n
    }

    /// The longest start of the text that takes at most `width` columns.
    public func prefix(columns width: Int) -> String {
        var n = 0
        var out = ""
        for ch in self {
            let w = SafeText.shownColumns(ch)
            guard n + w <= width else { break }
            n += w
            out.append(ch)
        }
        return out
    }

    /// The longest end of the text that takes at most `width` columns.
    public func suffix(columns width: Int) -> String {
        var n = 0
        var start = endIndex
        while start > startIndex {
            let before = index(before: start)
            let w = SafeText.shownColumns(self[before])
            guard n + w <= width else { break }
            n += w
            start = before
        }
        return String(self[start...])
    }
}

extension String {
    /// The text cut or padded with spaces to `width` columns.
    public func padded(to width: Int) -> String {
        let cut = columns > width ? prefix(columns: width) : self
        return cut + String(repeating: " ", count: max(0, width - cut.columns))
    }
}
