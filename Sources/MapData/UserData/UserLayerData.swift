import GeoCore

/// Where a user's layer came from.
public enum UserDataFormat: String, Sendable, CaseIterable {
    case geojson, gpx, kml, csv, ogr, stream
}

/// A piece of a feature's geometry: Multi forms and collections are several pieces.
public enum UserGeometryType: UInt8, Sendable, CaseIterable {
    case point, lineString, polygon

    /// The RFC 7946 name (what `render --json` counts them by).
    public var name: String {
        switch self {
        case .point: "Point"
        case .lineString: "LineString"
        case .polygon: "Polygon"
        }
    }
}

/// The features of one of the user's files, in columns (a million rows are a few arrays, not a million
/// dictionaries): per feature its pieces, per piece its type and rings, per ring its points in Web
/// Mercator (x, y in 0…1), and per feature its property values in one run of bytes. A feature of one
/// point keeps no box: the point is its box.
public struct UserLayerData: Sendable, Equatable {
    /// Per feature, its first piece (one more entry than features).
    public internal(set) var featurePieces = UserOffsets()
    /// Per piece, its type.
    public internal(set) var pieceTypes: [UserGeometryType] = []
    /// Per piece, its first ring (one more entry than pieces); a polygon's first ring is its outside.
    public internal(set) var pieceRings = UserOffsets()
    /// Per ring, its first point (one more entry than rings).
    public internal(set) var ringStarts = UserOffsets()
    /// The points in Web Mercator (EPSG:3857 scaled to the unit square, y down).
    public internal(set) var x: [Double] = []
    public internal(set) var y: [Double] = []
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
    /// The longitudes and latitudes the features span (longitudes as given: west ≤ east).
    public internal(set) var west = Double.infinity, east = -Double.infinity
    public internal(set) var south = Double.infinity, north = -Double.infinity

    /// No features; labels read from property `labelKey` while they are its values.
    public init(labelKey: String? = nil) { labels = UserNames(key: labelKey) }

    /// The number of features.
    public var count: Int { featurePieces.count - 1 }

    /// Features by geometry type: each feature counts once for each type among its pieces (a
    /// MultiPolygon is one Polygon).
    public var countsByType: [UserGeometryType: Int] {
        var counts: [UserGeometryType: Int] = [:]
        for f in 0..<count {
            var seen: Set<UserGeometryType> = []
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
        if boxSlots[f + 1] > slot { return (slotBoxes[4 * slot], slotBoxes[4 * slot + 1], slotBoxes[4 * slot + 2], slotBoxes[4 * slot + 3]) }
        let i = ringStarts[pieceRings[featurePieces[f]]]
        return (x[i], y[i], x[i], y[i])
    }

    /// Feature `f`'s box in degrees: west, south, east, north (a point's from its Mercator position).
    public func degreeBox(_ f: Int) -> (Double, Double, Double, Double) {
        let slot = boxSlots[f]
        if boxSlots[f + 1] > slot {
            return (slotDegreeBoxes[4 * slot], slotDegreeBoxes[4 * slot + 1], slotDegreeBoxes[4 * slot + 2], slotDegreeBoxes[4 * slot + 3])
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
                x += other.x[other.ringStarts[r]..<other.ringStarts[r + 1]]
                y += other.y[other.ringStarts[r]..<other.ringStarts[r + 1]]
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

/// Builds a `UserLayerData` one feature at a time: pieces are checked as they come, a feature with a bad
/// piece is left out (counted, with its reason), and a feature whose `id` was seen replaces the
/// earlier one.
public struct UserLayerBuilder: Sendable {
    public private(set) var data: UserLayerData
    /// Feature index by id.
    private var byID: [String: Int] = [:]
    /// Features replaced by a later one of their id (removed when finished).
    private var replaced: Set<Int> = []
    // The feature being built.
    private var pieceTypes: [UserGeometryType] = []
    private var pieceRings: [Int] = [0]
    private var ringStarts: [Int] = [0]
    private var xs: [Double] = []
    private var ys: [Double] = []
    private var lonRange = (Double.infinity, -Double.infinity)
    private var latRange = (Double.infinity, -Double.infinity)
    private var bad: String?

    /// A builder whose labels are mostly property `labelKey`'s values (`name` for GeoJSON, GPX, KML).
    public init(labelKey: String? = "name") { data = UserLayerData(labelKey: labelKey) }

    /// The features kept so far (replaced ones excluded).
    public var count: Int { data.count - replaced.count }
    /// Features replaced or deleted, still held until `compact`.
    public var replacedCount: Int { replaced.count }

    /// Makes room for about `features` more features of `points` points and `propertyBytes` of values each.
    public mutating func reserve(features: Int, pointsEach: Int, propertyBytes: Int) {
        data.x.reserveCapacity(data.x.count + features * pointsEach)
        data.y.reserveCapacity(data.y.count + features * pointsEach)
        data.rows.reserve(rows: features, bytesEach: propertyBytes)
        data.pieceTypes.reserveCapacity(data.pieceTypes.count + features)
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
    }

    /// Declares the properties' names in column order (a CSV file's header), so that
    /// `endFeature(id:name:values:)` can give values by column.
    public mutating func declareColumns(_ names: [String]) {
        for n in names { _ = data.column(n) }
    }

    /// Adds a point piece at (longitude, latitude) in degrees.
    public mutating func addPoint(longitude lon: Double, latitude lat: Double) {
        guard bad == nil else { return }
        guard lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else {
            bad = "coordinates (\(lon), \(lat)) outside ±180° longitude, ±90° latitude"
            return
        }
        xs.append(WebMercator.projectX(longitude: lon))
        ys.append(WebMercator.projectY(latitude: max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, lat))))
        lonRange = (min(lonRange.0, lon), max(lonRange.1, lon))
        latRange = (min(latRange.0, lat), max(latRange.1, lat))
        ringStarts.append(xs.count)
        pieceTypes.append(.point)
        pieceRings.append(ringStarts.count - 1)
    }

    /// Adds a piece: a point (one ring of one point), a line (one ring), or a polygon (its rings, the
    /// outside first). Positions are (longitude, latitude) in degrees.
    public mutating func addPiece(_ type: UserGeometryType, rings: [[(Double, Double)]]) {
        guard bad == nil else { return }
        switch type {
        case .point: if rings.count != 1 || rings[0].count != 1 { bad = "a point needs one position" }
        case .lineString: if rings.count != 1 || rings[0].count < 2 { bad = "a line of fewer than 2 positions" }
        case .polygon:
            if rings.isEmpty { bad = "a polygon without rings" }
            if let short = rings.first(where: { $0.count < 4 }) { bad = "a polygon ring of \(short.count) positions (at least 4)" }
        }
        if bad != nil { return }
        var points = 0
        for ring in rings {
            points += ring.count
            for (lon, lat) in ring {
                guard lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else {
                    bad = "coordinates (\(lon), \(lat)) outside ±180° longitude, ±90° latitude"
                    return
                }
            }
        }
        guard data.x.count + xs.count + points < UserOffsets.limit else {
            bad = "more than \(UserOffsets.limit) points in one file"
            return
        }
        for ring in rings {
            for (lon, lat) in ring {
                xs.append(WebMercator.projectX(longitude: lon))
                ys.append(WebMercator.projectY(latitude: max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, lat))))
                lonRange = (min(lonRange.0, lon), max(lonRange.1, lon))
                latRange = (min(latRange.0, lat), max(latRange.1, lat))
            }
            ringStarts.append(xs.count)
        }
        pieceTypes.append(type)
        pieceRings.append(ringStarts.count - 1)
    }

    /// Marks the feature being built as bad (it is left out, counted with `reason`).
    public mutating func reject(_ reason: String) {
        if bad == nil { bad = reason }
    }

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
            ringStarts.removeAll(keepingCapacity: true)
            ringStarts.append(0)
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
            lonRange = (Double.infinity, -Double.infinity)
            latRange = (Double.infinity, -Double.infinity)
            bad = nil
        }
        if bad == nil && pieceTypes.isEmpty { bad = "a feature without geometry" }
        if let bad {
            skip(bad)
            return false
        }
        let f = data.count
        if let id {
            if let earlier = byID[id] { replaced.insert(earlier) }
            byID[id] = f
        }
        let ringBase = data.ringStarts.count - 1
        let pointBase = data.x.count
        data.pieceTypes += pieceTypes
        for r in pieceRings.dropFirst() { data.pieceRings.append(r + ringBase) }
        for s in ringStarts.dropFirst() { data.ringStarts.append(s + pointBase) }
        data.x += xs
        data.y += ys
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for i in xs.indices {
            box = (min(box.0, xs[i]), min(box.1, ys[i]), max(box.2, xs[i]), max(box.3, ys[i]))
        }
        func color(_ keys: [String]) -> Int16 {
            for k in keys {
                if let c = data.columnIndex[k], c < values.count, let v = values[c], let i = SimpleStyle.cubeIndex(v) { return Int16(i) }
            }
            return -1
        }
        let styled = data.columnIndex["stroke"] != nil || data.columnIndex["marker-color"] != nil || data.columnIndex["fill"] != nil
        let stroke = styled ? color(pieceTypes.allSatisfy { $0 == .point } ? ["marker-color", "stroke"] : ["stroke", "marker-color"]) : -1
        let fill = styled ? color(["fill"]) : -1
        data.closeFeature(
            box: box, degreeBox: (lonRange.0, latRange.0, lonRange.1, latRange.1), stroke: stroke, fill: fill, name: name,
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
        for c in data.columns { _ = out.column(c) }
        for f in 0..<data.count where !replaced.contains(f) { out.append(feature: f, of: data) }
        return out
    }
}
