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
/// Mercator (x, y in 0…1), and each property a column of values.
public struct UserLayerData: Sendable, Equatable {
    /// Per feature, its first piece (one more entry than features).
    public internal(set) var featurePieces: [Int] = [0]
    /// Per piece, its type.
    public internal(set) var pieceTypes: [UserGeometryType] = []
    /// Per piece, its first ring (one more entry than pieces); a polygon's first ring is its outside.
    public internal(set) var pieceRings: [Int] = [0]
    /// Per ring, its first point (one more entry than rings).
    public internal(set) var ringStarts: [Int] = [0]
    /// The points in Web Mercator (EPSG:3857 scaled to the unit square, y down).
    public internal(set) var x: [Double] = []
    public internal(set) var y: [Double] = []
    /// Per feature its Mercator box: minX, minY, maxX, maxY.
    public internal(set) var boxes: [Double] = []
    /// Per feature its box in degrees as given: west, south, east, north.
    public internal(set) var degreeBoxes: [Double] = []
    /// Per feature its simplestyle colours as cube indices (`SimpleStyle`), −1 for none: the line's
    /// (`stroke`, or `marker-color` for points) and the area's (`fill`).
    public internal(set) var strokeColors: [Int16] = []
    public internal(set) var fillColors: [Int16] = []
    /// Per feature its label (`name`, else `title`), if any.
    public internal(set) var names: [String?] = []
    /// Property names, in the order first seen.
    public internal(set) var columns: [String] = []
    /// Per column, per feature, its value as text (strings as they are, other JSON values as JSON).
    public internal(set) var values: [[String?]] = []
    /// Features read but left out, and why the first was.
    public internal(set) var skipped = 0
    public internal(set) var firstSkipReason: String?
    /// The longitudes and latitudes the features span (longitudes as given: west ≤ east).
    public internal(set) var west = Double.infinity, east = -Double.infinity
    public internal(set) var south = Double.infinity, north = -Double.infinity

    /// No features.
    public init() {}

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

    /// Property `name` of feature `f`.
    public func property(_ name: String, of f: Int) -> String? {
        guard let c = columns.firstIndex(of: name) else { return nil }
        return values[c][f]
    }
}

/// Builds a `UserLayerData` one feature at a time: pieces are checked as they come, a feature with a bad
/// piece is left out (counted, with its reason), and a feature whose `id` was seen replaces the
/// earlier one.
public struct UserLayerBuilder: Sendable {
    public private(set) var data = UserLayerData()
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

    /// A builder.
    public init() {}

    /// The features kept so far (replaced ones excluded).
    public var count: Int { data.count - replaced.count }
    /// Features replaced or deleted, still held until `compact`.
    public var replacedCount: Int { replaced.count }

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
        for ring in rings {
            for (lon, lat) in ring {
                guard lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else {
                    bad = "coordinates (\(lon), \(lat)) outside ±180° longitude, ±90° latitude"
                    return
                }
            }
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
        defer {
            pieceTypes.removeAll(keepingCapacity: true)
            pieceRings = [0]
            ringStarts = [0]
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
        data.pieceRings += pieceRings.dropFirst().map { $0 + ringBase }
        data.featurePieces.append(data.pieceTypes.count)
        data.ringStarts += ringStarts.dropFirst().map { $0 + pointBase }
        data.x += xs
        data.y += ys
        data.boxes += [xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0]
        data.degreeBoxes += [lonRange.0, latRange.0, lonRange.1, latRange.1]
        data.names.append(name)
        func color(_ keys: [String]) -> Int16 {
            for k in keys {
                if let v = properties.first(where: { $0.0 == k })?.1, let i = SimpleStyle.cubeIndex(v) { return Int16(i) }
            }
            return -1
        }
        data.strokeColors.append(color(pieceTypes.allSatisfy { $0 == .point } ? ["marker-color", "stroke"] : ["stroke", "marker-color"]))
        data.fillColors.append(color(["fill"]))
        for c in data.values.indices { data.values[c].append(nil) }
        for (key, value) in properties {
            var c = data.columns.firstIndex(of: key)
            if c == nil {
                data.columns.append(key)
                data.values.append([String?](repeating: nil, count: f + 1))
                c = data.columns.count - 1
            }
            if let c { data.values[c][f] = value }
        }
        data.west = min(data.west, lonRange.0)
        data.east = max(data.east, lonRange.1)
        data.south = min(data.south, latRange.0)
        data.north = max(data.north, latRange.1)
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
        var out = UserLayerData()
        out.skipped = data.skipped
        out.firstSkipReason = data.firstSkipReason
        out.columns = data.columns
        out.values = data.columns.map { _ in [] }
        for f in 0..<data.count where !replaced.contains(f) {
            let ringBase = out.ringStarts.count - 1 - data.pieceRings[data.featurePieces[f]]
            let firstPoint = data.ringStarts[data.pieceRings[data.featurePieces[f]]]
            let lastPoint = data.ringStarts[data.pieceRings[data.featurePieces[f + 1]]]
            let pointBase = out.x.count - firstPoint
            for p in data.featurePieces[f]..<data.featurePieces[f + 1] {
                out.pieceTypes.append(data.pieceTypes[p])
                out.pieceRings.append(data.pieceRings[p + 1] + ringBase)
            }
            out.featurePieces.append(out.pieceTypes.count)
            for r in data.pieceRings[data.featurePieces[f]]..<data.pieceRings[data.featurePieces[f + 1]] {
                out.ringStarts.append(data.ringStarts[r + 1] + pointBase)
            }
            out.x += data.x[firstPoint..<lastPoint]
            out.y += data.y[firstPoint..<lastPoint]
            out.boxes += data.boxes[(4 * f)..<(4 * f + 4)]
            out.names.append(data.names[f])
            out.strokeColors.append(data.strokeColors[f])
            out.fillColors.append(data.fillColors[f])
            for c in data.values.indices { out.values[c].append(data.values[c][f]) }
            let box = data.degreeBoxes[(4 * f)..<(4 * f + 4)]
            out.degreeBoxes += box
            out.west = min(out.west, box[4 * f])
            out.south = min(out.south, box[4 * f + 1])
            out.east = max(out.east, box[4 * f + 2])
            out.north = max(out.north, box[4 * f + 3])
        }
        return out
    }
}
