import Raster
import Support

/// Text placed on the map: a grid label, a place or street name, from its first cell.
public struct MapLabel: Equatable, Sendable {
    /// What it says.
    public var text: String
    /// Column of its first character.
    public var col: Int
    /// Its row.
    public var row: Int
    /// How it is styled.
    public var role: StyleRole
    /// The feature it names, as the pick buffer tags it (0: none, the grid's labels).
    var feature: UInt32 = 0

    /// A label.
    public init(text: String, col: Int, row: Int, role: StyleRole) {
        self.text = text
        self.col = col
        self.row = row
        self.role = role
    }
}

/// Where text goes on the map, decided in one place: labels are placed in order of importance (the
/// grid's first, then places, then streets); a label never covers another label or a place's marker,
/// and keeps one clear cell on either side on its row (no other label, no shade stipple there). For a
/// place, the engine tries the four positions around its marker (right, left, above, below) and takes
/// the free one over the fewest drawn dots, as an atlas keeps names off the lines.
public struct LabelEngine {
    let cols: Int
    let rows: Int
    /// Cells no later label may use: every label's cells and margins, and the markers.
    public private(set) var taken: [Bool]
    /// Every label placed, in the order placed.
    public private(set) var labels: [MapLabel] = []
    /// The marker cells of the cities labelled (a suburb's name stands without a marker).
    private(set) var markers: [(col: Int, row: Int)] = []

    init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
        taken = [Bool](repeating: false, count: max(0, cols * rows))
    }

    /// True when `width` cells from `col` on `row` lie on the map and they and the cell on either side
    /// (where it is on the map) are free.
    public func isFree(col: Int, row: Int, width: Int) -> Bool {
        guard row >= 0, row < rows, col >= 0, width > 0, col + width <= cols else { return false }
        let lo = max(0, col - 1)
        let hi = min(cols - 1, col + width)
        for c in lo...hi where taken[row * cols + c] { return false }
        return true
    }

    /// Takes a label's cells and its margins.
    private mutating func take(col: Int, row: Int, width: Int) {
        for c in max(0, col - 1)...min(cols - 1, col + width) { taken[row * cols + c] = true }
    }

    /// Places `label` where it is, if it fits there.
    @discardableResult
    public mutating func place(_ label: MapLabel) -> Bool {
        let width = label.text.columns
        guard isFree(col: label.col, row: label.row, width: width) else { return false }
        take(col: label.col, row: label.row, width: width)
        labels.append(label)
        return true
    }

    /// The user's markers: a glyph in a cell, over whatever the map wrote there (names included), in
    /// the style of their role.
    public private(set) var overlayMarkers: [(col: Int, row: Int, glyph: Character, role: StyleRole)] = []

    /// Puts a user's marker in its cell (which no later label may use; labels placed before keep theirs,
    /// and the marker is written over them).
    public mutating func addMarker(_ glyph: Character, col: Int, row: Int, role: StyleRole) {
        guard col >= 0, row >= 0, col < cols, row < rows else { return }
        taken[row * cols + col] = true
        overlayMarkers.append((col, row, glyph, role))
    }

    /// The user's data is never hidden under the map's names: every label placed so far that covers a
    /// cell where `user` is true (a cell a user's line or point draws in) gives way, and so do the signs'
    /// gaps and the cities' ASCII markers there; those cells are then taken, so no later label covers
    /// them (a file's own names stand beside its lines, not on them).
    public mutating func giveWay(to user: [Bool]) {
        guard user.count == taken.count, user.contains(true) else { return }
        func covers(_ l: MapLabel) -> Bool {
            guard l.row >= 0, l.row < rows else { return false }
            for c in max(0, l.col)..<min(cols, l.col + l.text.columns) where user[l.row * cols + c] { return true }
            return false
        }
        func onUser(_ col: Int, _ row: Int) -> Bool {
            col >= 0 && row >= 0 && col < cols && row < rows && user[row * cols + col]
        }
        let before = labels.count
        labels.removeAll(where: covers)
        gaps.removeAll { onUser($0.col, $0.row) }
        markers.removeAll { onUser($0.col, $0.row) }
        if labels.count != before {
            // The cells of the labels that gave way are free again (for the labels still to come).
            taken = [Bool](repeating: false, count: taken.count)
            for l in labels where l.row >= 0 && l.row < rows && l.col < cols && l.col + l.text.columns > 0 {
                take(col: max(0, l.col), row: l.row, width: min(cols, l.col + l.text.columns) - max(0, l.col))
            }
            for m in markers { taken[m.row * cols + m.col] = true }
            for m in overlayMarkers { taken[m.row * cols + m.col] = true }
        }
        for i in user.indices where user[i] { taken[i] = true }
    }

    /// Cells kept blank between a point of interest's sign and its name (drawn as spaces over the map).
    public private(set) var gaps: [(col: Int, row: Int)] = []

    /// Where a place's name may go around its marker cell, in the order ties are broken; with `gap`, a
    /// cell between the marker and a name beside it (a point of interest's letter sign would otherwise
    /// read as the name's first letter, `HHotel`: MapLibre's `text-offset` beside an icon).
    static func candidates(markerCol m: Int, markerRow r: Int, width w: Int, gap: Bool = false) -> [(
        col: Int, row: Int
    )] {
        let g = gap ? 1 : 0
        return [(m + 1 + g, r), (m - w - g, r), (m - w / 2, r - 1), (m - w / 2, r + 1)]
    }

    /// Places a place's name beside its marker (which it then takes too): the free candidate over the
    /// fewest drawn dots. Nil when none is free; the marker is then not taken.
    mutating func placeBeside(
        _ text: String, role: StyleRole, markerCol m: Int, markerRow r: Int, drawsMarker: Bool, canvas: BrailleCanvas,
        gap: Bool = false
    ) -> MapLabel? {
        guard m >= 0, r >= 0, m < cols, r < rows, !taken[r * cols + m] else { return nil }
        let w = text.columns
        var best: (col: Int, row: Int, dots: Int)?
        for c in Self.candidates(markerCol: m, markerRow: r, width: w, gap: gap) {
            // Beside the marker its own cell may be the margin, never a cell of the text.
            guard isFree(col: c.col, row: c.row, width: w), !(c.row == r && (c.col...(c.col + w - 1)).contains(m))
            else { continue }
            var dots = 0
            for col in c.col..<(c.col + w) { dots += canvas.pattern(col: col, row: c.row).nonzeroBitCount }
            if best == nil || dots < (best?.dots ?? 0) { best = (c.col, c.row, dots) }
        }
        guard let b = best else { return nil }
        let label = MapLabel(text: text, col: b.col, row: b.row, role: role)
        take(col: b.col, row: b.row, width: w)
        taken[r * cols + m] = true
        // The gap is the label's margin on the marker's side (taken with it).
        if gap, b.row == r { gaps.append((b.col > m ? m + 1 : m - 1, r)) }
        labels.append(label)
        if drawsMarker { markers.append((m, r)) }
        return label
    }

    /// A point of interest's sign in the marker cell that `placeBeside` took for it.
    mutating func addSign(_ sign: MapLabel, feature: UInt32) {
        var s = sign
        s.feature = feature
        labels.append(s)
    }

    /// Names the feature (a pick tag) the last label placed is of.
    mutating func nameLast(_ feature: UInt32) {
        guard !labels.isEmpty else { return }
        labels[labels.count - 1].feature = feature
    }
}
