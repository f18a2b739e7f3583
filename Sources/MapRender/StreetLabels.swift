import GeoCore
import MapData
import MapFormats

/// A named street in view: its class and its points in the view's dots (the whole part, on screen or not).
struct StreetCandidate {
    var name: String
    var featureClass: FeatureClass
    var points: [DotPoint]
    /// The feature, as the pick buffer tags it.
    var feature: UInt32 = 0
}

/// Street names over the streets the base map drew.
public struct StreetNamesLayer: MapLayer, Equatable {
    /// The street names.
    public init() {}

    public func draw(into c: inout LayerContext) {
        guard !c.streets.isEmpty else { return }
        let t = c.transform
        StreetLabels.place(
            c.streets, worldLeft: -t.originX(copy: 0), worldTop: -t.originY, engine: &c.labels, ascii: c.ascii)
    }
}

/// Street names: horizontal text over a near-horizontal stretch of the street, major streets first,
/// each name once per view, never over another label. A stretch is found from the street's own
/// geometry (not from where the screen cuts it), and the text is centred on one of a set of anchors fixed
/// on the map (every `anchorDots` of the world at this zoom): the one nearest the stretch's middle that
/// fits on screen. So a label moves with the map while panning, and changes place only when its
/// anchor leaves the screen.
enum StreetLabels {
    /// A run of a street's segments that keeps going the same way, each segment within about 31° of the
    /// horizontal, or for a vertical stretch within about 63° of the vertical (steep and diagonal streets,
    /// labelled beside the line). Points are (u, v): u along the axis, sorted, v across it (x and y for a horizontal stretch,
    /// y and x for a vertical one).
    struct Stretch {
        var name: String
        var featureClass: FeatureClass
        var vertical: Bool
        var points: [DotPoint]
        var feature: UInt32 = 0
        var minU: Double { points.first?.x ?? 0 }
        var maxU: Double { points.last?.x ?? 0 }
        var length: Double { maxU - minU }

        /// The stretch's v at `u` (clamped to its ends).
        func v(at u: Double) -> Double {
            guard let first = points.first, let last = points.last else { return 0 }
            if u <= first.x { return first.y }
            if u >= last.x { return last.y }
            for (a, b) in zip(points, points.dropFirst()) where u <= b.x {
                return b.x == a.x ? a.y : a.y + (u - a.x) / (b.x - a.x) * (b.y - a.y)
            }
            return last.y
        }
    }

    /// A street's pieces (OSM splits streets at every junction) joined end to end into longer lines, so
    /// that a stretch can run past the junctions. Pieces meet where their end points are the same point
    /// of the data (the same node gives the same dots).
    static func joined(_ streets: [StreetCandidate]) -> [StreetCandidate] {
        // Ends are keyed by a number per name (hashing two doubles and an int, not a string, per lookup).
        struct End: Hashable {
            var name: Int
            var x: Double
            var y: Double
        }
        var pieces = streets.filter { $0.points.count >= 2 }
        var ids: [String: Int] = [:]
        let nameIDs = pieces.map { p in
            if let id = ids[p.name] { return id }
            ids[p.name] = ids.count
            return ids.count - 1
        }
        var used = [Bool](repeating: false, count: pieces.count)
        // The pieces at each end point, by name: nearly always one or two (a street going on past a
        // junction), so they are kept inline and only more go into an array.
        struct Slot {
            var first = -1
            var second = -1
            var more: [Int] = []
            mutating func add(_ i: Int) {
                if first < 0 { first = i } else if second < 0 { second = i } else { more.append(i) }
            }
        }
        var atEnd: [End: Slot] = [:]
        atEnd.reserveCapacity(2 * pieces.count)
        for (i, p) in pieces.enumerated() {
            let first = p.points[0]
            let last = p.points[p.points.count - 1]
            atEnd[End(name: nameIDs[i], x: first.x, y: first.y), default: Slot()].add(i)
            atEnd[End(name: nameIDs[i], x: last.x, y: last.y), default: Slot()].add(i)
        }
        func take(_ name: Int, at point: DotPoint) -> Int? {
            guard let slot = atEnd[End(name: name, x: point.x, y: point.y)] else { return nil }
            var found: Int?
            if slot.first >= 0, !used[slot.first] {
                found = slot.first
            } else if slot.second >= 0, !used[slot.second] {
                found = slot.second
            } else {
                found = slot.more.first { !used[$0] }
            }
            if let i = found { used[i] = true }
            return found
        }
        var out: [StreetCandidate] = []
        for i in pieces.indices where !used[i] {
            used[i] = true
            var line = pieces[i]
            // Grow at the end, then at the start, while another piece of the same name continues it.
            while let last = line.points.last, let j = take(nameIDs[i], at: last) {
                let next = pieces[j].points
                line.points += (next[0] == last ? next : next.reversed()).dropFirst()
            }
            while let first = line.points.first, let j = take(nameIDs[i], at: first) {
                let before = pieces[j].points
                line.points = (before[before.count - 1] == first ? before : before.reversed()).dropLast() + line.points
            }
            pieces[i].points = []
            out.append(line)
        }
        return out
    }

    /// A street's stretches along one axis.
    static func stretches(_ street: StreetCandidate, vertical: Bool) -> [Stretch] {
        var out: [Stretch] = []
        let p = street.points.map { vertical ? DotPoint(x: $0.y, y: $0.x) : $0 }
        var i = 0
        while i + 1 < p.count {
            var j = i
            let direction = p[i + 1].x >= p[i].x
            while j + 1 < p.count {
                let du = p[j + 1].x - p[j].x
                let dv = p[j + 1].y - p[j].y
                guard abs(dv) <= (vertical ? 2 : 0.6) * abs(du), du != 0, (du > 0) == direction else { break }
                j += 1
            }
            if j > i {
                let run = Array(p[i...j])
                out.append(
                    Stretch(
                        name: street.name, featureClass: street.featureClass, vertical: vertical,
                        points: direction ? run : run.reversed(), feature: street.feature))
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    /// Anchors are this many dots apart on the world.
    static let anchorDots = 32

    /// Places street names on free cells; `occupied` (cols × rows) is marked with what is placed.
    /// `worldLeft` and `worldTop` are the world dots of the screen's corner (they pin the anchors to the map).
    static func place(
        _ streets: [StreetCandidate], worldLeft: Double, worldTop: Double, engine: inout LabelEngine, ascii: Bool
    ) {
        let lines = joined(streets)
        var all = lines.flatMap { stretches($0, vertical: false) } + lines.flatMap { stretches($0, vertical: true) }
        // Major streets first (roads are numbered by importance), horizontal stretches before vertical ones,
        // then the longer; the name breaks ties so that the order never depends on the order of chunks.
        all.sort {
            ($0.featureClass.rawValue, $0.vertical ? 1 : 0, -$0.length, $0.name)
                < ($1.featureClass.rawValue, $1.vertical ? 1 : 0, -$1.length, $1.name)
        }
        var named = Set<String>()
        let k = Double(anchorDots)
        for s in all where !named.contains(s.name) {
            let text = Transliteration.screenText(s.name, ascii: ascii)
            let width = text.columns
            // Horizontal: the text about fits the stretch (two dots a cell; it may pass each end by two dots).
            // Vertical: the text stands beside it, and the stretch is at least two rows long.
            let half = s.vertical ? 4.0 : Double(width)
            guard 2 * half <= s.length + 4 else { continue }
            // Anchors on the stretch, nearest its middle first.
            let phase = (s.vertical ? worldTop : worldLeft).truncatingRemainder(dividingBy: k)
            let lowest = ((s.minU + half - 2 + phase) / k).rounded(.up)
            let highest = ((s.maxU - half + 2 + phase) / k).rounded(.down)
            guard lowest <= highest, highest - lowest < 256 else { continue }
            let middle = (s.minU + s.maxU) / 2
            let anchors = stride(from: lowest, through: highest, by: 1).map { $0 * k - phase }.sorted {
                abs($0 - middle) < abs($1 - middle)
            }
            for anchor in anchors {
                let v = s.v(at: anchor)
                let row: Int
                let col: Int
                if s.vertical {
                    // Beside the street: one blank cell right of where it crosses the anchor's row, then the text.
                    row = Int((anchor / 4).rounded(.down))
                    let top = Double(row * 4)
                    let right = max(v, s.v(at: top), s.v(at: top + 4))
                    col = Int((right / 2).rounded(.down)) + 2
                } else {
                    // On the street's row; the street must stay within a row of it under the whole text.
                    guard abs(s.v(at: anchor - half) - v) <= 4, abs(s.v(at: anchor + half) - v) <= 4 else { continue }
                    row = Int((v / 4).rounded(.down))
                    col = Int((anchor / 2).rounded(.down)) - width / 2
                }
                // One free cell around the text on its row, none taken on it.
                guard engine.place(MapLabel(text: text, col: col, row: row, role: .streetLabel)) else { continue }
                engine.nameLast(s.feature)
                named.insert(s.name)
                break
            }
        }
    }
}
