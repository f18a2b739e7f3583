import MapRender
import Support

/// The status line's fields, ranked: on a narrow screen the least important go first, whole, and no
/// field is ever cut in half. Zoom first, then the circle's radius, the credit the data on screen
/// requires, the center, the view's size, the scale bar, tiles loading, and the data sources.
struct StatusLine {
    /// One field: its text, its rank (0 is kept longest) and what goes before it when it follows another.
    struct Field {
        var text: String
        var rank: Int
        var separator = " │ "
    }

    /// The fields shown, in display order, and the credit at the line's end.
    var left: String
    var credit: String?

    /// Below this width only the zoom and the circle's radius remain.
    static let narrowCols = 30

    /// The line for `cols` columns. `credit` has a full and a short form (`© OSM`); `compact` is what
    /// is left below `narrowCols` (`z14.00 r2km`).
    static func layout(_ fields: [Field], credit: (full: String, short: String)?, compact: String, cols: Int)
        -> StatusLine
    {
        guard cols >= narrowCols else {
            let kept = fields.filter { $0.rank <= 1 }.map(\.text).joined(separator: " │ ")
            return StatusLine(left: kept.columns <= cols ? kept : compact.prefix(columns: cols), credit: nil)
        }
        func fit(_ creditText: String?) -> (shown: [Field], credit: String?) {
            var budget = cols - (creditText.map { $0.columns + 1 } ?? 0)
            var shown: [Field] = []
            for f in fields.sorted(by: { $0.rank < $1.rank }) {
                let cost = f.text.columns + (shown.isEmpty ? 0 : f.separator.columns)
                // Strictly by rank: once a field does not fit, none ranked below it is shown.
                guard cost <= budget else { break }
                budget -= cost
                shown.append(f)
            }
            return (shown, creditText)
        }
        var best = fit(credit?.full)
        if let credit, best.shown.count < fields.count {
            let short = fit(credit.short)
            if short.shown.count > best.shown.count { best = short }
        }
        // Back in display order.
        let ordered = fields.filter { f in best.shown.contains { $0.rank == f.rank && $0.text == f.text } }
        var text = ""
        for (i, f) in ordered.enumerated() { text += (i == 0 ? "" : f.separator) + f.text }
        return StatusLine(left: text, credit: best.credit)
    }
}
