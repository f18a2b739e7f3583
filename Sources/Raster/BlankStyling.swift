/// Which style to send for blank cells, whose foreground colour nobody can see.
///
/// A blank takes the style of the nearest glyph to its left (blanks before a row's first glyph take
/// that glyph's style) when a blank looks the same in both styles (`look`: its background and the
/// attributes that show on a blank); otherwise it keeps its own. The terminal is then sent a colour
/// change only where a glyph's colour changes, not around every gap in a dotted line. The screen
/// treats two blanks of the same look as equal (see `TerminalPainter`), so this choice costs nothing
/// where such a blank already is.
public enum BlankStyling {
    /// The style to send for each cell of a row: `styles[i]` as given for glyphs (`isBlank[i]` false),
    /// and for blanks their own style or one lent by a glyph.
    @inlinable
    public static func resolve<Style, Look: Equatable>(
        _ styles: [Style], isBlank: [Bool], look: (Style) -> Look
    ) -> [Style] {
        var out = styles
        lend(&out, isBlank: isBlank, look: look)
        return out
    }

    /// `resolve` in place (a row's pens, for every row of every frame: no copy).
    @inlinable
    public static func lend<Style, Look: Equatable>(_ styles: inout [Style], isBlank: [Bool], look: (Style) -> Look) {
        styles.withUnsafeMutableBufferPointer { s in
            isBlank.withUnsafeBufferPointer { b in lend(s, isBlank: b, look: look) }
        }
    }

    /// `resolve` in place, through pointers.
    @inlinable
    public static func lend<Style, Look: Equatable>(
        _ styles: UnsafeMutableBufferPointer<Style>, isBlank: UnsafeBufferPointer<Bool>, look: (Style) -> Look
    ) {
        guard let first = isBlank.firstIndex(of: false) else { return }
        var lent = styles[first]
        for i in 0..<min(styles.count, isBlank.count) {
            if !isBlank[i] {
                lent = styles[i]
            } else if look(lent) == look(styles[i]) {
                styles[i] = lent
            }
        }
    }
}
