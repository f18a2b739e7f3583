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
        var lent = styles.indices.first { !isBlank[$0] }.map { styles[$0] }
        var out = styles
        for i in styles.indices {
            if !isBlank[i] {
                lent = styles[i]
            } else if let l = lent, look(l) == look(styles[i]) {
                out[i] = l
            }
        }
        return out
    }
}
