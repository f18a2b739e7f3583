import GeoCore
import MapData

/// A named street in view: its class and its points in the view's dots (the whole part, on screen or not).
struct StreetCandidate {
    var name: String
    var featureClass: FeatureClass
    var points: [DotPoint]
}

/// Street names: horizontal text over a near-horizontal stretch of the street, major streets first,
/// each name once per view, never over another label. A stretch is found from the street's own
/// geometry (not from where the screen cuts it) and the text sits at its middle, so a label moves with
/// the map while panning instead of jumping.
enum StreetLabels {
    /// A run of a street's segments that stays within about 24° of horizontal and one cell row.
    struct Stretch {
        var name: String
        var featureClass: FeatureClass
        var minX: Double
        var maxX: Double
        var midY: Double
        var length: Double { maxX - minX }
    }

    /// The near-horizontal stretches of a street, longest first.
    static func stretches(_ street: StreetCandidate) -> [Stretch] {
        var out: [Stretch] = []
        let p = street.points
        var i = 0
        while i + 1 < p.count {
            var j = i
            var lowY = p[i].y
            var highY = p[i].y
            let direction = p[i + 1].x >= p[i].x
            while j + 1 < p.count {
                let dx = p[j + 1].x - p[j].x
                let dy = p[j + 1].y - p[j].y
                let y0 = min(lowY, p[j + 1].y)
                let y1 = max(highY, p[j + 1].y)
                guard abs(dy) <= 0.45 * abs(dx), (dx >= 0) == direction, y1 - y0 < 4 else { break }
                lowY = y0
                highY = y1
                j += 1
            }
            if j > i {
                out.append(
                    Stretch(
                        name: street.name, featureClass: street.featureClass, minX: min(p[i].x, p[j].x),
                        maxX: max(p[i].x, p[j].x), midY: (lowY + highY) / 2))
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    /// Places street names on free cells; `occupied` (cols × rows) is marked with what is placed.
    static func place(
        _ streets: [StreetCandidate], cols: Int, rows: Int, occupied: inout [Bool], ascii: Bool
    ) -> [MapLabel] {
        var all = streets.flatMap(stretches)
        // Major streets first (roads are numbered by importance), then the longer stretches; the name breaks
        // ties so that the order never depends on the order of chunks.
        all.sort { ($0.featureClass.rawValue, -$0.length, $0.name) < ($1.featureClass.rawValue, -$1.length, $1.name) }
        var placed: [MapLabel] = []
        var named = Set<String>()
        for s in all where !named.contains(s.name) {
            let text = Transliteration.screenText(s.name, ascii: ascii)
            let width = text.count
            // The text must fit on the stretch (two dots a cell), leaving a dot at each end.
            guard Double(width * 2 + 2) <= s.length else { continue }
            let col = Int(((s.minX + s.maxX) / 2 / 2).rounded(.down)) - width / 2
            let row = Int((s.midY / 4).rounded(.down))
            guard row >= 0, row < rows, col >= 0, col + width <= cols else { continue }
            // One free cell around the text on its row, none taken on it.
            let lo = max(0, col - 1)
            let hi = min(cols - 1, col + width)
            guard !(lo...hi).contains(where: { occupied[row * cols + $0] }) else { continue }
            for c in lo...hi { occupied[row * cols + c] = true }
            placed.append(MapLabel(text: s.name, col: col, row: row, role: .streetLabel))
            named.insert(s.name)
        }
        return placed
    }
}
