import Raster

extension Theme {
    /// The theme `--theme auto` takes: light on a light background the terminal reported (OSC 11),
    /// else as `COLORFGBG` says, else dark (the map's first look, and most terminals').
    public static func auto(background: TerminalColor?, colorFGBG: String?) -> Theme {
        if let background { return background.isLight ? .light : .dark }
        return colorFGBG.flatMap(Self.ofColorFGBG) ?? .dark
    }

    /// The theme `COLORFGBG` implies, or nil when it says nothing. rxvt sets it to `fg;bg` (or
    /// `fg;default;bg`, the background last) in the 16 ANSI colour numbers; as vim reads it (its
    /// `'background'` option), a background of 0–6 or 8 is dark and 7 or 9–15 light; `default` says
    /// nothing.
    public static func ofColorFGBG(_ value: String) -> Theme? {
        let fields = value.split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count >= 2, let last = fields.last, last.allSatisfy(\.isASCII), last.allSatisfy(\.isNumber),
            let bg = Int(last), (0...15).contains(bg)
        else { return nil }
        return bg <= 6 || bg == 8 ? .dark : .light
    }
}
