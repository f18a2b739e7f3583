/// Reads GeoJSON (RFC 7946): a FeatureCollection, Features, bare geometries and GeometryCollections,
/// one document or many in a row (newline-delimited GeoJSON, RFC 8142 text sequences). Coordinates go
/// straight into the layer's columns; a bad feature is left out and counted, a syntax error ends the
/// file in one line with its line and column.
public enum GeoJSONReader {
    /// The layer of `bytes`, the contents of `file`.
    public static func read(_ bytes: [UInt8], file: String, progress: ReadProgress? = nil) throws(MapDataError) -> UserLayerData {
        try bytes.withUnsafeBufferPointer { buffer throws(MapDataError) in try read(buffer, file: file, progress: progress) }
    }

    /// The layer of `bytes`, the contents of `file`.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress? = nil)
        throws(MapDataError) -> UserLayerData
    {
        var builder = UserLayerBuilder()
        try read(bytes, file: file, into: &builder, progress: progress)
        return builder.finished()
    }

    /// Reads `bytes` into `builder` (a stream's lines go into one builder).
    public static func read(
        _ bytes: [UInt8], file: String, into builder: inout UserLayerBuilder, progress: ReadProgress? = nil
    ) throws(MapDataError) {
        try bytes.withUnsafeBufferPointer { buffer throws(MapDataError) in try read(buffer, file: file, into: &builder, progress: progress) }
    }

    /// Reads `bytes` into `builder` (a stream's lines go into one builder).
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, into builder: inout UserLayerBuilder, progress: ReadProgress? = nil
    ) throws(MapDataError) {
        let result: Result<Void, JSONSyntaxError> = { buffer in
            var reader = Reader(scanner: JSONScanner(buffer))
            reader.progress = progress
            do throws(JSONSyntaxError) {
                // A UTF-8 byte order mark is allowed before a document (RFC 8259 §8.1 lets readers skip it).
                if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { reader.scanner.at = 3 }
                while reader.scanner.peek() != nil {
                    try reader.topLevel(&builder)
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }(bytes)
        if case .failure(let e) = result {
            let (line, column) = JSONScanner.lineAndColumn(bytes, e.offset)
            throw MapDataError(file: file, .syntax(line: line, column: column, e.message))
        }
    }

    /// The crs members RFC 7946 §4 allows a legacy reader to meet: WGS 84 longitude/latitude only.
    static func isWGS84(_ crs: JSONTree) -> Bool {
        guard case .string(let name)? = crs["properties"]?["name"] else { return false }
        let n = name.uppercased()
        return n.hasSuffix("CRS84") || n.hasSuffix("CRS:84") || n == "EPSG:4326" || n.hasSuffix("EPSG::4326")
    }

    /// One geometry as read: its type and where its coordinates went.
    struct Geometry {
        var type: String?
        /// Index into the reader's positions; nesting levels below.
        var coordinates: Coordinates?
        var members: [Geometry] = []
        var hasMembers = false
    }

    /// A coordinates array: positions [from, to) and, per nesting level, the ends of its lists.
    struct Coordinates {
        var depth: Int
        var first: Int
        var end: Int
        /// ends[k]: for lists at nesting k+1 (k = 0: lists of positions), each list's end in the level below.
        var levels: [[Int]]
        var altitude: Double?
    }

    struct Reader {
        var scanner: JSONScanner
        var lons: [Double] = []
        var lats: [Double] = []
        var progress: ReadProgress?
        var toldAt = 0

        /// A top-level value: a FeatureCollection, a Feature or a geometry.
        mutating func topLevel(_ builder: inout UserLayerBuilder) throws(JSONSyntaxError) {
            guard scanner.peek() == UInt8(ascii: "{") else {
                throw scanner.error(scanner.found("expected a GeoJSON object"))
            }
            let start = scanner.at
            var object = try self.object(&builder, topLevel: true)
            if case .string(let t)? = object.type, t != "FeatureCollection" && t != "Feature" {
                // A bare geometry: a feature of its own.
                object.geometry = object.asGeometry
                object.type = .string("Feature")
            }
            if let crs = object.crs, crs != .null, !GeoJSONReader.isWGS84(crs) {
                scanner.at = start
                throw scanner.error("a crs other than WGS 84 (RFC 7946 §4: coordinates are WGS 84 longitude, latitude)")
            }
            if case .string("Feature")? = object.type { emit(object, &builder) }
            lons.removeAll(keepingCapacity: true)
            lats.removeAll(keepingCapacity: true)
        }

        /// What an object held of GeoJSON.
        struct Object {
            var type: JSONTree?
            var geometry: Geometry?
            var geometryIsNull = false
            var properties: JSONTree?
            var id: JSONTree?
            var crs: JSONTree?
            var coordinates: Coordinates?
            var geometries: [Geometry]?
            var asGeometry: Geometry {
                var g = Geometry()
                if case .string(let t)? = type { g.type = t }
                g.coordinates = coordinates
                if let geometries {
                    g.members = geometries
                    g.hasMembers = true
                }
                return g
            }
        }

        /// An object, member by member: Features inside a `features` array are emitted as they end.
        mutating func object(_ builder: inout UserLayerBuilder, topLevel: Bool = false) throws(JSONSyntaxError) -> Object {
            var o = Object()
            guard try scanner.beginObject() else { return o }
            repeat {
                let key = try scanner.key()
                switch key {
                case "type": o.type = try scanner.value()
                case "features" where scanner.peek() == UInt8(ascii: "["):
                    if try scanner.beginArray() {
                        repeat {
                            guard scanner.peek() == UInt8(ascii: "{") else {
                                throw scanner.error(scanner.found("expected a Feature object"))
                            }
                            let feature = try object(&builder)
                            if case .string("Feature")? = feature.type {
                                emit(feature, &builder)
                            } else {
                                builder.skip("a member of features that is not a Feature")
                            }
                            lons.removeAll(keepingCapacity: true)
                            lats.removeAll(keepingCapacity: true)
                        } while try scanner.next(closing: UInt8(ascii: "]"))
                    }
                case "geometry":
                    if scanner.peek() == UInt8(ascii: "{") {
                        o.geometry = try object(&builder).asGeometry
                    } else {
                        let v = try scanner.value()
                        if v == .null { o.geometryIsNull = true } else { o.geometry = Geometry(type: "not an object") }
                    }
                case "geometries" where scanner.peek() == UInt8(ascii: "["):
                    var list: [Geometry] = []
                    if try scanner.beginArray() {
                        repeat {
                            if scanner.peek() == UInt8(ascii: "{") {
                                list.append(try object(&builder).asGeometry)
                            } else {
                                try scanner.skipValue()
                                list.append(Geometry(type: "not an object"))
                            }
                        } while try scanner.next(closing: UInt8(ascii: "]"))
                    }
                    o.geometries = list
                case "coordinates" where scanner.peek() == UInt8(ascii: "["): o.coordinates = try coordinates()
                case "properties": o.properties = try scanner.value()
                case "id": o.id = try scanner.value()
                case "crs": o.crs = try scanner.value()
                default: try scanner.skipValue()
                }
            } while try scanner.next(closing: UInt8(ascii: "}"))
            return o
        }

        /// A coordinates array of any nesting, its positions into `lons`/`lats`.
        mutating func coordinates() throws(JSONSyntaxError) -> Coordinates {
            let first = lons.count
            var levels: [[Int]] = []
            var altitude: Double?
            let depth = try nested(&levels, level: -1, altitude: &altitude)
            return Coordinates(depth: depth, first: first, end: lons.count, levels: levels, altitude: altitude)
        }

        /// Reads an array at nesting `level` (−1: the coordinates value itself). Returns the depth of
        /// lists above positions (0: a position). A position is 2 or more numbers; more than 2: the
        /// third is an altitude (kept for a point), the rest ignored.
        mutating func nested(_ levels: inout [[Int]], level: Int, altitude: inout Double?) throws(JSONSyntaxError) -> Int {
            let open = scanner.at
            guard try scanner.beginArray() else {
                // An empty list: no positions (an empty geometry).
                return 1
            }
            if scanner.peek() != UInt8(ascii: "[") {
                // A position.
                var count = 0
                var lon = 0.0
                var lat = 0.0
                repeat {
                    guard let b = scanner.peek(), b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) else {
                        throw scanner.error(scanner.found("expected a number in a position"))
                    }
                    let (v, _) = try scanner.number()
                    switch count {
                    case 0: lon = v
                    case 1: lat = v
                    case 2: altitude = v
                    default: break
                    }
                    count += 1
                } while try scanner.next(closing: UInt8(ascii: "]"))
                guard count >= 2 else {
                    scanner.at = open
                    throw scanner.error("a position needs a longitude and a latitude")
                }
                lons.append(lon)
                lats.append(lat)
                return 0
            }
            var depth = -1
            repeat {
                let d = try nested(&levels, level: level + 1, altitude: &altitude)
                if depth >= 0 && d != depth {
                    scanner.at = open
                    throw scanner.error("coordinates nested unevenly")
                }
                depth = d
                // This child ends: at level d, the end of the level below (positions or lists).
                if d > 0 {
                    while levels.count < d { levels.append([]) }
                    levels[d - 1].append(d == 1 ? lons.count : levels[d - 2].count)
                }
            } while try scanner.next(closing: UInt8(ascii: "]"))
            return depth + 1
        }

        /// A Feature into the builder: its geometry's pieces, id, label and properties.
        mutating func emit(_ o: Object, _ builder: inout UserLayerBuilder) {
            if let progress, scanner.at - toldAt >= 1 << 20 {
                toldAt = scanner.at
                progress(Double(scanner.at) / Double(max(1, scanner.bytes.count)))
            }
            var properties: [(String, String?)] = []
            var name: String?
            var title: String?
            if case .object(let members)? = o.properties {
                for (k, v) in members {
                    properties.append((k, v.propertyText))
                    if k == "name", case .string(let s) = v { name = s }
                    if k == "title", case .string(let s) = v { title = s }
                }
            }
            if let altitude = o.geometry?.coordinates?.altitude, o.geometry?.type == "Point",
                !properties.contains(where: { $0.0 == "altitude" })
            {
                properties.append(("altitude", JSONTree.number(altitude, text: "\(altitude)").jsonText))
            }
            if let g = o.geometry {
                add(g, &builder, nesting: 0)
            } else if o.geometryIsNull {
                builder.reject("a feature whose geometry is null")
            }
            let id: String?
            switch o.id {
            case .string(let s)?: id = "s" + s
            case .number(let v, _)?: id = "n\(v)"
            default: id = nil
            }
            builder.endFeature(id: id, name: name ?? title, properties: properties)
        }

        /// A geometry's pieces.
        func add(_ g: Geometry, _ builder: inout UserLayerBuilder, nesting: Int) {
            let type = g.type ?? ""
            if type == "GeometryCollection" {
                guard nesting < 32 else { return builder.reject("geometry collections nested more than 32 deep") }
                guard g.hasMembers else { return builder.reject("a GeometryCollection without geometries") }
                for member in g.members { add(member, &builder, nesting: nesting + 1) }
                return
            }
            let wanted: Int
            switch type {
            case "Point": wanted = 0
            case "MultiPoint", "LineString": wanted = 1
            case "MultiLineString", "Polygon": wanted = 2
            case "MultiPolygon": wanted = 3
            default: return builder.reject(type.isEmpty ? "a geometry without a type" : "an unknown geometry type '\(type)'")
            }
            guard let c = g.coordinates else { return builder.reject("a \(type) without coordinates") }
            // An empty geometry (RFC 7946 §3.1: allowed) draws nothing.
            if c.first == c.end { return builder.reject("an empty \(type)") }
            guard c.depth == wanted else { return builder.reject("a \(type) with coordinates nested \(c.depth) deep (\(wanted) expected)") }
            func position(_ i: Int) -> (Double, Double) { (lons[i], lats[i]) }
            func ring(_ from: Int, _ to: Int) -> [(Double, Double)] { (from..<to).map(position) }
            // The lists of positions: ranges of positions, the first starting at this geometry's first.
            func rings() -> [(Int, Int)] {
                var out: [(Int, Int)] = []
                var start = c.first
                for end in c.levels[0] {
                    out.append((start, end))
                    start = end
                }
                return out
            }
            switch type {
            case "Point": builder.addPiece(.point, rings: [[position(c.first)]])
            case "MultiPoint": for i in c.first..<c.end { builder.addPiece(.point, rings: [[position(i)]]) }
            case "LineString": builder.addPiece(.lineString, rings: [ring(c.first, c.end)])
            case "MultiLineString": for (a, b) in rings() { builder.addPiece(.lineString, rings: [ring(a, b)]) }
            case "Polygon": builder.addPiece(.polygon, rings: rings().map { ring($0.0, $0.1) })
            default:  // MultiPolygon
                let rings = rings()
                var start = 0
                for end in c.levels[1] {
                    builder.addPiece(.polygon, rings: rings[start..<end].map { ring($0.0, $0.1) })
                    start = end
                }
            }
        }
    }
}
