import GeoCore

/// Where a user's layer came from.
public struct UserDataFormat: RawRepresentable, Hashable, Sendable {
    /// Its name: `geojson`, `gpx`.
    public let rawValue: String

    /// A format by its name (a driver's own: `FormatDriver.format`).
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let geojson = UserDataFormat(rawValue: "geojson")
    public static let gpx = UserDataFormat(rawValue: "gpx")
    public static let kml = UserDataFormat(rawValue: "kml")
    public static let csv = UserDataFormat(rawValue: "csv")
    /// What GDAL's ogr2ogr read (as GeoJSON records).
    public static let ogr = UserDataFormat(rawValue: "ogr")
    /// Standard input or `--follow`: one GeoJSON object a line, live.
    public static let stream = UserDataFormat(rawValue: "stream")
}

/// The features of one of the user's files, in columns (a million rows are a few arrays, not a million
/// dictionaries): per feature its pieces, per piece its type and rings, per ring its points in Web
/// Mercator (x, y in 0…1), and per feature its property values in one run of bytes. A feature of one
/// point keeps no box: the point is its box.
public struct UserLayerData: Sendable, Equatable {
    /// Per feature, its first piece (one more entry than features).
    public internal(set) var featurePieces = UserOffsets()
    /// Per piece, its type.
    public internal(set) var pieceTypes: [PieceType] = []
    /// Per piece, its first ring (one more entry than pieces); a polygon's first ring is its outside.
    public internal(set) var pieceRings = UserOffsets()
    /// Per ring, its first point (one more entry than rings).
    public internal(set) var ringStarts = UserOffsets()
    /// The points in Web Mercator (EPSG:3857 scaled to the unit square, y down; x beyond 0…1 for a
    /// longitude past ±180°, drawn where it points).
    public internal(set) var x = CoordinateColumn()
    public internal(set) var y = CoordinateColumn()
    /// Per feature, its box's slot (none for a feature of one point; one more entry than features), and
    /// per slot the Mercator box (minX, minY, maxX, maxY) and the box in degrees as given (west, south,
    /// east, north).
    var boxSlots = UserOffsets()
    var slotBoxes: [Double] = []
    var slotDegreeBoxes: [Double] = []
    /// Per feature its simplestyle colours as cube indices (`SimpleStyle`), −1 for none: the line's
    /// (`stroke`, or `marker-color` for points) and the area's (`fill`).
    public internal(set) var strokeColors = UserColors()
    public internal(set) var fillColors = UserColors()
    /// Per feature its label (`name`, else `title`), if any.
    var labels = UserNames()
    /// Property names, in the order first seen, and their columns.
    public internal(set) var columns: [String] = []
    var columnIndex: [String: Int] = [:]
    /// Per feature, its values by column.
    var rows = UserPropertyRows()
    /// Features read but left out, and why the first was.
    public internal(set) var skipped = 0
    public internal(set) var firstSkipReason: String?

    /// Counts `count` more left out (a stream's bad lines), the first for `reason` when none was before.
    public mutating func noteLeftOut(_ count: Int, reason: String?) {
        skipped += count
        if firstSkipReason == nil { firstSkipReason = reason }
    }
    /// What reading changed or stopped at, for the layer list and `render`'s line.
    public internal(set) var notes = UserLayerNotes()
    /// The longitudes and latitudes the features span (longitudes as given: west ≤ east).
    public internal(set) var west = Double.infinity, east = -Double.infinity
    public internal(set) var south = Double.infinity, north = -Double.infinity

    /// No features; labels read from property `labelKey` while they are its values.
    public init(labelKey: String? = nil) { labels = UserNames(key: labelKey) }

    /// The number of features.
    public var count: Int { featurePieces.count - 1 }

    /// About how many bytes the layer holds (its columns; what a ceiling of memory compares).
    public var approximateBytes: Int {
        x.byteCount + y.byteCount + 4 * (ringStarts.count + pieceRings.count + featurePieces.count) + pieceTypes.count
            + 32
            * slotBoxes.count / 4
            + rows.byteCount + 2 * (strokeColors.count + fillColors.count)
    }

    /// Says that reading stopped at `ceiling` (a reader outside the builder: ogr2ogr's limits).
    public mutating func noteStop(_ ceiling: String) {
        if notes.stoppedAt == nil { notes.stoppedAt = ceiling }
    }

    /// Features by geometry type: each feature counts once for each type among its pieces (a
    /// MultiPolygon is one Polygon).
    public var countsByType: [PieceType: Int] {
        var counts: [PieceType: Int] = [:]
        for f in 0..<count {
            var seen: Set<PieceType> = []
            for p in featurePieces[f]..<featurePieces[f + 1] where seen.insert(pieceTypes[p]).inserted {
                counts[pieceTypes[p], default: 0] += 1
            }
        }
        return counts
    }

    /// The longitudes and latitudes spanned, nil when empty.
    public var bounds: CoordinateBounds? {
        count > 0 && west <= east ? CoordinateBounds(north: north, south: south, west: west, east: east) : nil
    }

    /// The points of feature `f`.
    public func points(of f: Int) -> Range<Int> {
        ringStarts[pieceRings[featurePieces[f]]]..<ringStarts[pieceRings[featurePieces[f + 1]]]
    }

    /// Feature `f`'s Mercator box: minX, minY, maxX, maxY.
    public func box(_ f: Int) -> (Double, Double, Double, Double) {
        let slot = boxSlots[f]
        if boxSlots[f + 1] > slot {
            return (slotBoxes[4 * slot], slotBoxes[4 * slot + 1], slotBoxes[4 * slot + 2], slotBoxes[4 * slot + 3])
        }
        let i = ringStarts[pieceRings[featurePieces[f]]]
        return (x[i], y[i], x[i], y[i])
    }

    /// Feature `f`'s box in degrees: west, south, east, north (a point's from its Mercator position).
    public func degreeBox(_ f: Int) -> (Double, Double, Double, Double) {
        let slot = boxSlots[f]
        if boxSlots[f + 1] > slot {
            return (
                slotDegreeBoxes[4 * slot], slotDegreeBoxes[4 * slot + 1], slotDegreeBoxes[4 * slot + 2],
                slotDegreeBoxes[4 * slot + 3]
            )
        }
        let (px, py, _, _) = box(f)
        let c = WebMercator.unproject(MercatorPoint(x: px, y: py))
        return (c.longitude, c.latitude, c.longitude, c.latitude)
    }

    /// Feature `f`'s label, if any.
    public func name(of f: Int) -> String? { labels.name(of: f, rows: rows) }

    /// Every feature's label.
    public var names: [String?] { (0..<count).map(name(of:)) }

    /// Property `name` of feature `f`.
    public func property(_ name: String, of f: Int) -> String? {
        guard let c = columnIndex[name] else { return nil }
        return rows.value(row: f, column: c)
    }

    /// Feature `f`'s properties, in column order (those it has).
    public func properties(of f: Int) -> [(String, String)] {
        zip(columns, rows.values(row: f)).compactMap { k, v in v.map { (k, $0) } }
    }

    /// The column of property `name`, made when new.
    mutating func column(_ name: String) -> Int {
        if let c = columnIndex[name] { return c }
        columns.append(name)
        columnIndex[name] = columns.count - 1
        if name == labels.key { labels.column = columns.count - 1 }
        return columns.count - 1
    }

    /// Ends a feature whose pieces were appended: its boxes, colours, label and
    /// values (by column).
    mutating func closeFeature(
        box: (Double, Double, Double, Double), degreeBox: (Double, Double, Double, Double), stroke: Int16, fill: Int16,
        name: String?, values: [String?]
    ) {
        featurePieces.append(pieceTypes.count)
        let f = count - 1
        let slot = boxSlots.last
        if points(of: f).count == 1 {
            boxSlots.append(slot)
        } else {
            boxSlots.append(slot + 1)
            slotBoxes += [box.0, box.1, box.2, box.3]
            slotDegreeBoxes += [degreeBox.0, degreeBox.1, degreeBox.2, degreeBox.3]
        }
        strokeColors.append(stroke)
        fillColors.append(fill)
        let keyValue = labels.column.flatMap { $0 < values.count ? values[$0] : nil }
        labels.append(name, keyValue: keyValue, rows: rows)
        rows.append(values)
        west = min(west, degreeBox.0)
        south = min(south, degreeBox.1)
        east = max(east, degreeBox.2)
        north = max(north, degreeBox.3)
    }

    /// Appends feature `f` of `other` whole (its pieces, points, attributes and values).
    mutating func append(feature f: Int, of other: UserLayerData) {
        for p in other.featurePieces[f]..<other.featurePieces[f + 1] {
            pieceTypes.append(other.pieceTypes[p])
            for r in other.pieceRings[p]..<other.pieceRings[p + 1] {
                x.append(contentsOf: other.x[other.ringStarts[r]..<other.ringStarts[r + 1]])
                y.append(contentsOf: other.y[other.ringStarts[r]..<other.ringStarts[r + 1]])
                ringStarts.append(x.count)
            }
            pieceRings.append(ringStarts.count - 1)
        }
        let values = other.rows.values(row: f)
        var mine = [String?](repeating: nil, count: columns.count)
        for (c, v) in values.enumerated() where v != nil {
            let k = column(other.columns[c])
            if k >= mine.count { mine += [String?](repeating: nil, count: k + 1 - mine.count) }
            mine[k] = v
        }
        closeFeature(
            box: other.box(f), degreeBox: other.degreeBox(f), stroke: other.strokeColors[f], fill: other.fillColors[f],
            name: other.name(of: f), values: mine)
    }
}

/// What reading a layer changed or stopped at: positions drawn past ±180° of longitude (where they
/// point, as GDAL and geojson-vt draw them) or left out past ±90° of latitude, features replaced by a
/// later one of their id, and the ceiling the reader stopped at.
public struct UserLayerNotes: Sendable, Equatable {
    /// Positions whose longitude is past ±180° (at most ±540°), drawn where they point.
    public internal(set) var longitudesPast180 = 0
    /// Positions left out: a latitude past ±90°, a longitude past ±540°, or not a number.
    public internal(set) var positionsLeftOut = 0
    /// Features replaced by a later one of their id (GeoJSON, streams).
    public internal(set) var replaced = 0
    /// The ceiling reading stopped at (`more than 100000000 features`), if it did.
    public internal(set) var stoppedAt: String?
    /// The legacy encoding a text file that is not UTF-8 was read in (`Windows-1252`), if it was.
    public internal(set) var readAs: String?

    public init() {}

    /// The notes in words, each a phrase (`3 positions past ±180° drawn where they point`).
    public var phrases: [String] {
        func count(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }
        var out: [String] = []
        if longitudesPast180 > 0 {
            out.append(count(longitudesPast180, "position", "positions") + " past ±180° drawn where they point")
        }
        if positionsLeftOut > 0 {
            out.append(count(positionsLeftOut, "position", "positions") + " past ±90° of latitude left out")
        }
        if replaced > 0 { out.append(count(replaced, "feature", "features") + " replaced by a later one of its id") }
        if let stoppedAt { out.append("stopped at " + stoppedAt) }
        if let readAs { out.append("read as \(readAs) (it is not UTF-8)") }
        return out
    }
}

/// Builds a `UserLayerData` one feature at a time: positions go straight into the layer's columns
/// (projected as they come: a feature of a hundred million points is held once, not copied piece by
/// piece), pieces are checked as they come, a feature with a bad piece is left out (counted, with its
/// reason, its positions taken back), and a feature whose `id` was seen replaces the earlier one.
public struct UserLayerBuilder: Sendable {
    public private(set) var data: UserLayerData
    /// Feature index by id.
    private var byID: [String: Int] = [:]
    /// Features replaced by a later one of their id, or deleted (removed when finished).
    private var replaced: Set<Int> = []
    // The feature being built: its first point in the columns, its pieces and their rings' ends.
    private var pendingStart = 0
    private var pieceTypes: [PieceType] = []
    /// Per piece, its first ring in `ringEnds` (one more entry than pieces).
    private var pieceRings: [Int] = [0]
    /// Per ring, where it ends in the columns.
    private var ringEnds: [Int] = []
    /// Where the last piece ended in the columns.
    private var piecesEnd = 0
    private var lonRange = (Double.infinity, -Double.infinity)
    private var latRange = (Double.infinity, -Double.infinity)
    private var pendingNotes = (past180: 0, leftOut: 0)
    private var bad: String?
    /// Features read (kept, replaced and left out): the ceiling counts them.
    private var read = 0

    /// A builder whose labels are mostly property `labelKey`'s values (`name` for GeoJSON, GPX, KML).
    public init(labelKey: String? = "name") { data = UserLayerData(labelKey: labelKey) }

    /// The features kept so far (replaced ones excluded).
    public var count: Int { data.count - replaced.count }
    /// Features replaced or deleted, still held until `compact`.
    public var replacedCount: Int { replaced.count }
    /// True once a ceiling has been reached (`ReadLimits`): a reader stops reading.
    public var isFull: Bool { data.notes.stoppedAt != nil }

    /// Makes room for about `features` more features of `points` points and `propertyBytes` of values each.
    public mutating func reserve(features: Int, pointsEach: Int, propertyBytes: Int) {
        data.x.reserveCapacity(data.x.count + features * pointsEach)
        data.y.reserveCapacity(data.y.count + features * pointsEach)
        data.rows.reserve(rows: features, bytesEach: propertyBytes)
        data.pieceTypes.reserveCapacity(data.pieceTypes.count + features)
    }

    /// Makes room for about `points` more points (a reader that knows its input's size).
    public mutating func reserve(points: Int) {
        data.x.reserveCapacity(data.x.count + points)
        data.y.reserveCapacity(data.y.count + points)
    }

    /// Drops the features replaced or deleted (a stream's markers move for ever: only the live ones stay).
    public mutating func compact() {
        guard !replaced.isEmpty else { return }
        var newIndex = [Int](repeating: -1, count: data.count)
        var next = 0
        for f in 0..<data.count where !replaced.contains(f) {
            newIndex[f] = next
            next += 1
        }
        data = finished()
        byID = byID.compactMapValues { newIndex[$0] >= 0 ? newIndex[$0] : nil }
        replaced = []
        pendingStart = data.x.count
        piecesEnd = pendingStart
    }

    /// Declares the properties' names in column order (a CSV file's header), so that
    /// `endFeature(id:name:values:)` can give values by column.
    public mutating func declareColumns(_ names: [String]) {
        for n in names { _ = data.column(n) }
    }

    /// Where the next position goes in the columns (a reader marks its lists' ends with it).
    public var nextPosition: Int { data.x.count }
    /// Where the feature being built starts in the columns.
    public var featureStart: Int { pendingStart }

    /// Forgets the feature being built, its positions taken back, nothing counted (what a reader read
    /// was no feature: a record it skips, a FeatureCollection's own members).
    public mutating func abandonFeature() {
        dropPositions(after: pendingStart)
        pieceTypes.removeAll(keepingCapacity: true)
        pieceRings = [0]
        ringEnds.removeAll(keepingCapacity: true)
        lonRange = (Double.infinity, -Double.infinity)
        latRange = (Double.infinity, -Double.infinity)
        pendingNotes = (0, 0)
        bad = nil
        piecesEnd = pendingStart
    }

    /// Appends a position of the feature being built, in degrees; false when it is left out: a latitude
    /// past ±90° or a longitude past ±540° (counted in the notes), not a number, past the points' ceiling
    /// or the memory (the feature is then bad). A longitude past ±180° is drawn where it points.
    @discardableResult
    public mutating func appendPosition(longitude lon: Double, latitude lat: Double) -> Bool {
        guard lon.isFinite, lat.isFinite, abs(lat) <= 90, abs(lon) <= 540 else {
            pendingNotes.leftOut += 1
            return false
        }
        guard data.x.count < ReadLimits.points - 1 else {
            bad = bad ?? "more than \(ReadLimits.points) points in one file"
            stop("more than \(ReadLimits.points) points")
            return false
        }
        guard data.x.append(WebMercator.projectX(longitude: lon)) else { return outOfMemory() }
        guard
            data.y.append(
                WebMercator.projectY(
                    latitude: Swift.max(-WebMercator.maxLatitude, Swift.min(WebMercator.maxLatitude, lat))))
        else {
            data.x.truncate(to: data.y.count)
            return outOfMemory()
        }
        if abs(lon) > 180 { pendingNotes.past180 += 1 }
        lonRange = (Swift.min(lonRange.0, lon), Swift.max(lonRange.1, lon))
        latRange = (Swift.min(latRange.0, lat), Swift.max(latRange.1, lat))
        return true
    }

    /// The system has no memory to grow the layer: the feature is bad, and reading stops.
    private mutating func outOfMemory() -> Bool {
        bad = bad ?? "no memory left for its points"
        stop("the memory this machine has (\(data.x.count) points read)")
        return false
    }

    /// Reading stops at a ceiling (said once, in the notes).
    mutating func stop(_ ceiling: String) {
        if data.notes.stoppedAt == nil { data.notes.stoppedAt = ceiling }
    }

    /// Ends a piece whose rings are the positions appended since the last piece, each ring ending at
    /// the given place in the columns (`nextPosition` when its list ended): checked, and the feature
    /// made bad when it is not a point, line or polygon. A piece of no positions (an empty member, or
    /// one whose positions were all left out) is no piece.
    public mutating func addPiece(_ type: PieceType, ringEnds ends: [Int]) {
        let start = piecesEnd
        guard bad == nil, let last = ends.last, last > start else { return }
        var sizes: [Int] = []
        var from = start
        for end in ends {
            sizes.append(end - from)
            from = end
        }
        var type = type
        switch type {
        case .point: if sizes != [1] { bad = "a point needs one position" }
        case .lineString:
            // A line of one position is a point where it is (GDAL keeps it; a dot draws it).
            if sizes == [1] {
                type = .point
            } else if sizes.count != 1 || sizes[0] < 2 {
                bad = "a line of fewer than 2 positions"
            }
        case .polygon:
            // Three positions make a triangle (the ring closed when drawn, as GDAL reads unclosed rings).
            if let short = sizes.first(where: { $0 < 3 }) { bad = "a polygon ring of \(short) positions (at least 3)" }
        }
        if bad != nil { return }
        pieceTypes.append(type)
        ringEnds += ends
        pieceRings.append(ringEnds.count)
        piecesEnd = last
    }

    /// Adds a point piece at (longitude, latitude) in degrees.
    public mutating func addPoint(longitude lon: Double, latitude lat: Double) {
        guard bad == nil else { return }
        guard appendPosition(longitude: lon, latitude: lat) else {
            if bad == nil { bad = "coordinates (\(lon), \(lat)) outside ±540° longitude, ±90° latitude" }
            return
        }
        addPiece(.point, ringEnds: [nextPosition])
    }

    /// Adds a piece: a point (one ring of one point), a line (one ring), or a polygon (its rings, the
    /// outside first). Positions are (longitude, latitude) in degrees; one left out (past ±90° of
    /// latitude) makes the piece bad where it leaves too few.
    public mutating func addPiece(_ type: PieceType, rings: [[(Double, Double)]]) {
        guard bad == nil else { return }
        if rings.isEmpty {
            bad = type == .polygon ? "a polygon without rings" : "a piece without positions"
            return
        }
        var ends: [Int] = []
        for ring in rings {
            for (lon, lat) in ring { appendPosition(longitude: lon, latitude: lat) }
            ends.append(nextPosition)
        }
        if bad != nil { return }
        if ends.last == piecesEnd {
            bad = "coordinates outside ±540° longitude, ±90° latitude"
            return
        }
        addPiece(type, ringEnds: ends)
    }

    /// Moves positions appended for the feature being built: `range` is made to start at `to` (a reader
    /// that read a list it does not use takes it out of the way; the moves go towards the start).
    public mutating func movePositions(_ range: Range<Int>, to: Int) {
        precondition(to >= pendingStart && to <= range.lowerBound)
        data.x.move(range, to: to)
        data.y.move(range, to: to)
    }

    /// Takes back the positions appended after `end` (lists a reader read and does not use).
    public mutating func dropPositions(after end: Int) {
        guard end >= pendingStart else { return }
        data.x.truncate(to: end)
        data.y.truncate(to: end)
    }

    /// Marks the feature being built as bad (it is left out, counted with `reason`).
    public mutating func reject(_ reason: String) {
        if bad == nil { bad = reason }
    }

    /// True when the feature being built is bad so far.
    public var isRejected: Bool { bad != nil }

    /// Ends the feature: kept with its `id` (replacing an earlier feature of that id), label and
    /// properties, or counted as skipped. True when kept.
    @discardableResult
    public mutating func endFeature(id: String?, name: String?, properties: [(String, String?)]) -> Bool {
        guard bad == nil && !pieceTypes.isEmpty else { return endFeature(id: id, name: name, values: []) }
        var values = [String?](repeating: nil, count: data.columns.count)
        for (key, value) in properties {
            let c = data.column(key)
            if c >= values.count { values += [String?](repeating: nil, count: c + 1 - values.count) }
            values[c] = value
        }
        return endFeature(id: id, name: name, values: values)
    }

    /// Ends the feature as `endFeature(id:name:properties:)` does, its values given by column (as
    /// declared, or as properties made them).
    @discardableResult
    public mutating func endFeature(id: String?, name: String?, values: [String?]) -> Bool {
        defer {
            pieceTypes.removeAll(keepingCapacity: true)
            pieceRings.removeAll(keepingCapacity: true)
            pieceRings.append(0)
            ringEnds.removeAll(keepingCapacity: true)
            lonRange = (Double.infinity, -Double.infinity)
            latRange = (Double.infinity, -Double.infinity)
            pendingNotes = (0, 0)
            bad = nil
            pendingStart = data.x.count
            piecesEnd = pendingStart
        }
        read += 1
        if read > ReadLimits.features { stop("more than \(ReadLimits.features) features") }
        if bad == nil && pieceTypes.isEmpty {
            bad =
                pendingNotes.leftOut > 0
                ? "its only positions are past ±90° of latitude, ±540° of longitude, or not finite"
                : "a feature without geometry"
        }
        // Positions a reader appended and no piece took are taken back.
        if bad == nil, piecesEnd < data.x.count { dropPositions(after: piecesEnd) }
        if let bad {
            dropPositions(after: pendingStart)
            skip(bad)
            return false
        }
        data.notes.longitudesPast180 += pendingNotes.past180
        data.notes.positionsLeftOut += pendingNotes.leftOut
        let f = data.count
        if let id {
            if let earlier = byID[id] {
                replaced.insert(earlier)
                data.notes.replaced += 1
            }
            byID[id] = f
        }
        data.pieceTypes += pieceTypes
        let ringBase = data.ringStarts.count - 1
        for r in pieceRings.dropFirst() { data.pieceRings.append(r + ringBase) }
        for end in ringEnds { data.ringStarts.append(end) }
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        data.x.withValues { xs in
            data.y.withValues { ys in
                for i in pendingStart..<piecesEnd {
                    box = (
                        Swift.min(box.0, xs[i]), Swift.min(box.1, ys[i]), Swift.max(box.2, xs[i]),
                        Swift.max(box.3, ys[i])
                    )
                }
            }
        }
        func color(_ keys: [String]) -> Int16 {
            for k in keys {
                if let c = data.columnIndex[k], c < values.count, let v = values[c], let i = SimpleStyle.cubeIndex(v) {
                    return Int16(i)
                }
            }
            return -1
        }
        let styled =
            data.columnIndex["stroke"] != nil || data.columnIndex["marker-color"] != nil
            || data.columnIndex["fill"] != nil
        let stroke =
            styled
            ? color(pieceTypes.allSatisfy { $0 == .point } ? ["marker-color", "stroke"] : ["stroke", "marker-color"])
            : -1
        let fill = styled ? color(["fill"]) : -1
        data.closeFeature(
            box: box, degreeBox: (lonRange.0, latRange.0, lonRange.1, latRange.1), stroke: stroke, fill: fill,
            name: name,
            values: values)
        return true
    }

    /// Counts a feature left out.
    public mutating func skip(_ reason: String) {
        data.skipped += 1
        if data.firstSkipReason == nil { data.firstSkipReason = reason }
    }

    /// Removes the feature of `id` (a stream's `delete`); true when there was one.
    @discardableResult
    public mutating func delete(id: String) -> Bool {
        guard let f = byID.removeValue(forKey: id) else { return false }
        replaced.insert(f)
        return true
    }

    /// The layer: features replaced by later ones of their id removed, bounds of those kept.
    public func finished() -> UserLayerData {
        guard !replaced.isEmpty else { return data }
        var out = UserLayerData(labelKey: data.labels.key)
        out.skipped = data.skipped
        out.firstSkipReason = data.firstSkipReason
        out.notes = data.notes
        for c in data.columns { _ = out.column(c) }
        for f in 0..<data.count where !replaced.contains(f) { out.append(feature: f, of: data) }
        return out
    }
}
