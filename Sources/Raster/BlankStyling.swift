/// Which style to send for blank cells, whose foreground colour nobody can see.
///
/// A blank takes the style of the nearest glyph to its left, and blanks before a row's first glyph
/// take that glyph's style, when that style looks the same on a blank (no background colour:
/// `showsOnBlank` false). The terminal is then sent a colour change only where a glyph's colour
/// changes, not around every gap in a dotted line. Other blanks take the default style. The screen
/// treats two plain blanks as equal whatever their foreground (see `CursesScreen`), so this choice
/// costs nothing where a blank already is.
public enum BlankStyling {
    /// The style of every cell of a row: `styles[i]` for glyphs, nil for blanks, which get a style here.
    public static func resolve<Style>(
        _ styles: [Style?], default defaultStyle: Style, showsOnBlank: (Style) -> Bool
    ) -> [Style] {
        let first = styles.lazy.compactMap { $0 }.first
        var lent = first.map { showsOnBlank($0) ? defaultStyle : $0 } ?? defaultStyle
        return styles.map { style in
            guard let style else { return lent }
            lent = showsOnBlank(style) ? defaultStyle : style
            return style
        }
    }
}
