/// Which style to send for blank cells, whose foreground colour nobody can see.
///
/// A blank keeps what shows of its own style (`look`: its background and the attributes that show on
/// a blank) and takes the rest, its foreground, from the nearest glyph to its left (blanks before a
/// row's first glyph from that glyph): where the look is the same it takes that glyph's style whole,
/// and where only the background changes, the terminal is sent only the background. The terminal is
/// then sent a colour change only where a glyph's colour or a background changes, not around every
/// gap in a dotted line nor twice around a blank of another background. The screen treats two blanks
/// of the same look as equal (see `TerminalPainter`), so this choice costs nothing where such a blank
/// already is.
public enum BlankStyling {
    /// The style to send for each cell of a row: `styles[i]` as given for glyphs (`isBlank[i]` false),
    /// and for blanks `combine(lent, own)`: their own look with the rest of the glyph's style to their
    /// left (`combine` must give `lent` when both look the same).
    @inlinable
    public static func resolve<Style>(
        _ styles: [Style], isBlank: [Bool], combine: (_ lent: Style, _ own: Style) -> Style
    ) -> [Style] {
        var out = styles
        out.withUnsafeMutableBufferPointer { s in
            isBlank.withUnsafeBufferPointer { b in lend(s, isBlank: b, combine: combine) }
        }
        return out
    }

    /// `resolve` in place, through pointers (a row's pens, for every row of every frame: no copy).
    @inlinable
    public static func lend<Style>(
        _ styles: UnsafeMutableBufferPointer<Style>, isBlank: UnsafeBufferPointer<Bool>,
        combine: (_ lent: Style, _ own: Style) -> Style
    ) {
        guard let first = isBlank.firstIndex(of: false) else { return }
        var lent = styles[first]
        for i in 0..<min(styles.count, isBlank.count) {
            if !isBlank[i] {
                lent = styles[i]
            } else {
                styles[i] = combine(lent, styles[i])
            }
        }
    }
}
