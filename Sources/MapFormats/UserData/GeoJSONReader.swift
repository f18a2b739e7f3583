/// GeoJSON's driver: `{`, or an RFC 8142 record separator (GeoJSON text sequences); `.geojson`,
/// `.json` and the line-delimited names. It also reads what ogr2ogr and a stream give.
public struct GeoJSONDriver: FormatDriver {
    public let format = UserDataFormat.geojson
    public let title = "GeoJSON"
    public let extensions = ["geojson", "json", "geojsonl", "geojsons", "ndjson", "geojsonseq"]
    public init() {}
    public func claims(content head: ArraySlice<UInt8>, extension ext: String) -> Bool {
        head.first == UInt8(ascii: "{") || head.first == 0x1E
    }
    public func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?) throws(MapDataError)
        -> UserLayerData
    { try GeoJSONReader.read(bytes, file: file, progress: progress) }
    public let fuzzSample = #"""
        {"type":"FeatureCollection","features":[{"type":"Feature","id":7,"properties":{"name":"Torni","n":1.5e2},
        "geometry":{"type":"Point","coordinates":[24.94,60.17]}},{"type":"Feature","properties":null,"geometry":
        {"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.4,0.2],[0.2,0.4],[0.2,0.2]]]}},
        {"type":"Feature","properties":{"stroke":"#f00"},"geometry":{"type":"GeometryCollection","geometries":[
        {"type":"MultiLineString","coordinates":[[[179,1],[-179,1]]]}]}}]}
        """#
    public let fuzzTokens = ["{", "}", "[", "]", "\"", ",", ":", "\\u", "1e999", "-", "\u{1E}", "\0"]
}

/// Reads GeoJSON (RFC 7946): a FeatureCollection, Features, bare geometries and GeometryCollections,
/// one document or many in a row (newline-delimited GeoJSON, RFC 8142 text sequences). Positions go
/// straight into the layer's columns as they are read, so a feature of any size is held once.
///
/// As forgiving as GDAL: a feature with a bad position (null, a string, one number), uneven nesting or
/// no usable geometry is left out and counted with its line and column, the rest kept; an empty member
/// (of a MultiPolygon, a GeometryCollection) is no piece; a longitude past ±180° (up to ±540°) is
/// drawn where it points and a latitude past ±90° leaves its position out, both counted in the layer's
/// notes; a record of a text sequence that is not JSON is skipped (RFC 7464 §2.1). A document that is
/// not JSON at all ends in one line with its line and column.
public enum GeoJSONReader: BufferReader {
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
        try bytes.withUnsafeBufferPointer { buffer throws(MapDataError) in
            try read(buffer, file: file, into: &builder, progress: progress)
        }
    }

    /// Reads `bytes` into `builder` (a stream's lines go into one builder).
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, into builder: inout UserLayerBuilder,
        progress: ReadProgress? = nil
    ) throws(MapDataError) {
        var reader = Reader(scanner: JSONScanner(bytes))
        reader.progress = progress
        // A UTF-8 byte order mark is allowed before a document (RFC 8259 §8.1 lets readers skip it).
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.scanner.at = 3 }
        // An RFC 8142 text sequence: its first record is led by RS (0x1E).
        let sequence =
            bytes[reader.scanner.at..<bytes.count].first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            == 0x1E
        var values = 0
        while reader.scanner.peek() != nil, !builder.isFull {
            let start = reader.scanner.at
            do throws(JSONSyntaxError) {
                try reader.topLevel(&builder)
                values += 1
            } catch {
                // A record of a text sequence (RS-led, or one of many lines) that is not JSON is skipped,
                // and reading goes on at the next record (RFC 7464 §2.1); a document that is not JSON fails.
                guard sequence || values > 0, !error.refusesFile,
                    let next = reader.nextRecord(after: start, sequence: sequence)
                else {
                    let (line, column) = JSONScanner.lineAndColumn(bytes, error.offset)
                    throw MapDataError(file: file, .syntax(line: line, column: column, error.message))
                }
                let (line, column) = JSONScanner.lineAndColumn(bytes, error.offset)
                builder.abandonFeature()
                builder.skip("line \(line), column \(column): a record that is not JSON (\(error.message))")
                reader.scanner.at = next
                reader.scanner.depth = 0
            }
        }
    }

    /// GeoJSON's type names as RFC 7946 spells them, whatever case a file writes them in (GDAL reads
    /// `featurecollection` and `point`); other values as they are.
    static let typeNames = [
        "FeatureCollection", "Feature", "GeometryCollection", "Point", "MultiPoint", "LineString", "MultiLineString",
        "Polygon", "MultiPolygon",
    ]
    static let canonicalTypes = Dictionary(uniqueKeysWithValues: typeNames.map { ($0.lowercased(), $0) })
    static func canonical(_ type: JSONTree) -> JSONTree {
        guard case .string(let t) = type, let name = canonicalTypes[t.lowercased()] else { return type }
        return .string(name)
    }

    /// The crs members RFC 7946 §4 allows a legacy reader to meet: WGS 84 longitude/latitude only.
    static func isWGS84(_ crs: JSONTree) -> Bool {
        guard case .string(let name)? = crs["properties"]?["name"] else { return false }
        let n = name.uppercased()
        return n.hasSuffix("CRS84") || n.hasSuffix("CRS:84") || n == "EPSG:4326" || n.hasSuffix("EPSG::4326")
    }

    /// One geometry as read: its type, its coordinates (in the columns) or members.
    struct Geometry {
        var type: String?
        var coordinates: Coordinates?
        var members: [Geometry] = []
        var hasMembers = false
    }

    /// A coordinates array as read: its positions [first, end) in the columns, and per nesting level the
    /// ends of its lists; or why it cannot be used (and where).
    struct Coordinates {
        /// Lists above positions (0: a position); nil when every list is empty.
        var depth: Int?
        var first: Int
        var end: Int
        /// levels[k]: for lists at nesting k+1 (k = 0: lists of positions), each list's end in the level
        /// below (positions: places in the columns).
        var levels: [[Int]]
        var altitude: Double?
        var bad: (reason: String, offset: Int)?

        /// Moved by `shift` places in the columns.
        mutating func shift(_ by: Int) {
            first += by
            end += by
            if !levels.isEmpty { levels[0] = levels[0].map { $0 + by } }
        }
    }

    /// Reads through the whole input: objects member by member, positions into the builder.
    struct Reader {
        var scanner: JSONScanner
        var progress: ReadProgress?
        var toldAt = 0
        /// Every coordinates array read since the feature began, in order.
        var read: [Coordinates] = []

        /// Tells `progress` how far the reader is, every megabyte (also inside a large feature: the pages
        /// behind are given back as it goes).
        @inline(__always)
        mutating func tell() {
            guard let progress, scanner.at - toldAt >= 1 << 20 else { return }
            toldAt = scanner.at
            progress(Double(scanner.at) / Double(max(1, scanner.bytes.count)))
        }

        /// Where the record after the one starting at `start` starts: at the next RS of a text sequence,
        /// else at the next line (a record of newline-delimited GeoJSON is one line).
        func nextRecord(after start: Int, sequence: Bool) -> Int? {
            let separator: UInt8 = sequence ? 0x1E : 0x0A
            var i = min(start + 1, scanner.bytes.count)
            while i < scanner.bytes.count, scanner.bytes[i] != separator { i += 1 }
            return i
        }

        /// A top-level value: a FeatureCollection, a Feature or a geometry.
        mutating func topLevel(_ builder: inout UserLayerBuilder) throws(JSONSyntaxError) {
            guard scanner.peek() == UInt8(ascii: "{") else {
                throw scanner.error(scanner.found("expected a GeoJSON object"))
            }
            let start = scanner.at
            read = []
            var object = try self.object(&builder)
            if case .string(let t)? = object.type, t != "FeatureCollection" && t != "Feature" {
                // A bare geometry: a feature of its own.
                object.geometry = object.asGeometry
                object.type = .string("Feature")
            }
            if let crs = object.crs, crs != .null, !GeoJSONReader.isWGS84(crs) {
                scanner.at = start
                var e = scanner.error(
                    "a crs other than WGS 84 (RFC 7946 §4: coordinates are WGS 84 longitude, latitude)")
                e.refusesFile = true
                throw e
            }
            if case .string("Feature")? = object.type {
                emit(object, &builder)
            } else {
                builder.abandonFeature()
            }
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
        mutating func object(_ builder: inout UserLayerBuilder) throws(JSONSyntaxError) -> Object {
            var o = Object()
            guard try scanner.beginObject() else { return o }
            repeat {
                let key = try scanner.key()
                switch key {
                case "type": o.type = GeoJSONReader.canonical(try scanner.value())
                case "features" where scanner.peek() == UInt8(ascii: "["):
                    if try scanner.beginArray() {
                        repeat {
                            guard scanner.peek() == UInt8(ascii: "{") else {
                                // Not an object: left out, and reading goes on.
                                try scanner.skipValue()
                                builder.skip("a member of features that is not a Feature")
                                continue
                            }
                            read = []
                            let feature = try object(&builder)
                            // A member with a geometry is a feature whatever its type says (GDAL's way).
                            if case .string("Feature")? = feature.type {
                                emit(feature, &builder)
                            } else if feature.geometry != nil || feature.geometryIsNull {
                                emit(feature, &builder)
                            } else {
                                builder.abandonFeature()
                                builder.skip("a member of features that is not a Feature")
                            }
                            if builder.isFull {
                                // The ceiling: the rest of the array is not read.
                                scanner.at = scanner.bytes.count
                                return o
                            }
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
                case "coordinates" where scanner.peek() == UInt8(ascii: "["):
                    let c = try coordinates(&builder)
                    read.append(c)
                    o.coordinates = c
                case "properties": o.properties = try scanner.value()
                case "id": o.id = try scanner.value()
                case "crs": o.crs = try scanner.value()
                default: try scanner.skipValue()
                }
            } while try scanner.next(closing: UInt8(ascii: "}"))
            return o
        }

        /// A coordinates array of any nesting, its positions into the builder's columns.
        mutating func coordinates(_ builder: inout UserLayerBuilder) throws(JSONSyntaxError) -> Coordinates {
            var c = Coordinates(depth: nil, first: builder.nextPosition, end: 0, levels: [], altitude: nil, bad: nil)
            c.depth = try nested(&c, &builder)
            c.end = builder.nextPosition
            return c
        }

        /// Reads an array: returns the depth of lists above positions (0: a position; nil: only empty
        /// lists, which fit any depth). A position is 2 or more numbers; more than 2: the third is an
        /// altitude (kept for a point), the rest ignored. What cannot be a position (null, a string, one
        /// number, uneven nesting) makes the coordinates bad, and reading goes on.
        mutating func nested(_ c: inout Coordinates, _ builder: inout UserLayerBuilder) throws(JSONSyntaxError) -> Int?
        {
            let open = scanner.at
            guard try scanner.beginArray() else { return nil }
            tell()
            if scanner.peek() != UInt8(ascii: "[") {
                // A position.
                var count = 0
                var lon = 0.0
                var lat = 0.0
                repeat {
                    guard let b = scanner.peek(),
                        b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                    else {
                        if c.bad == nil {
                            c.bad = (scanner.found("a position holds something that is not a number"), scanner.at)
                        }
                        try scanner.skipValue()
                        count = -1_000
                        continue
                    }
                    let (v, _) = try scanner.number()
                    switch count {
                    case 0: lon = v
                    case 1: lat = v
                    case 2: c.altitude = v
                    default: break
                    }
                    count += 1
                } while try scanner.next(closing: UInt8(ascii: "]"))
                if count >= 2 {
                    builder.appendPosition(longitude: lon, latitude: lat)
                } else if count >= 0, c.bad == nil {
                    c.bad = ("a position needs a longitude and a latitude", open)
                }
                return 0
            }
            var depth: Int?
            repeat {
                guard scanner.peek() == UInt8(ascii: "[") else {
                    // A number among lists: uneven.
                    if c.bad == nil { c.bad = ("coordinates nested unevenly", scanner.at) }
                    try scanner.skipValue()
                    continue
                }
                let d = try nested(&c, &builder)
                guard let d else { continue }  // an empty list: no member
                if let depth, d != depth, c.bad == nil { c.bad = ("coordinates nested unevenly", open) }
                depth = depth ?? d
                // This child ends: at level d, the end of the level below (positions or lists).
                if d > 0 {
                    while c.levels.count < d { c.levels.append([]) }
                    c.levels[d - 1].append(d == 1 ? builder.nextPosition : c.levels[d - 2].count)
                }
            } while try scanner.next(closing: UInt8(ascii: "]"))
            return depth.map { $0 + 1 }
        }

        /// A Feature into the builder: its geometry's pieces, id, label and properties.
        mutating func emit(_ o: Object, _ builder: inout UserLayerBuilder) {
            tell()
            var properties: [(String, String?)] = []
            var name: String?
            var otherName: String?
            var title: String?
            var label: String?
            if case .object(let members)? = o.properties {
                for (k, v) in members {
                    properties.append((k, v.propertyText))
                    guard case .string(let s) = v else { continue }
                    if k == "name" { name = s }
                    // GDAL's drivers name it `Name` (KML, KMZ) or `NAME` (Shapefiles): the label too.
                    if k == "Name" || k == "NAME" { otherName = otherName ?? s }
                    if k == "title" { title = s }
                    if k == "label" { label = s }
                }
            }
            if let altitude = o.geometry?.coordinates?.altitude, o.geometry?.type == "Point",
                !properties.contains(where: { $0.0 == "altitude" })
            {
                properties.append(("altitude", JSONTree.number(altitude, text: "\(altitude)").jsonText))
            }
            if var g = o.geometry {
                // The geometry's positions, in order, first in the columns: lists read and not used (a
                // stray `coordinates` member) are moved out of the way.
                var next = builder.featureStart
                gather(&g, next: &next, &builder)
                builder.dropPositions(after: next)
                add(g, &builder, nesting: 0)
            } else {
                builder.dropPositions(after: builder.featureStart)
                if o.geometryIsNull { builder.reject("a feature whose geometry is null") }
            }
            let id: String?
            switch o.id {
            case .string(let s)?: id = "s" + s
            case .number(let v, _)?: id = "n\(v)"
            default: id = nil
            }
            // The label: `name`, else `Name`/`NAME`, `title`, `label`, in that order.
            builder.endFeature(id: id, name: name ?? otherName ?? title ?? label, properties: properties)
            read = []
        }

        /// Moves the geometry's coordinates, in order, to start at `next` in the columns.
        func gather(_ g: inout Geometry, next: inout Int, _ builder: inout UserLayerBuilder) {
            if var c = g.coordinates {
                if c.first != next {
                    builder.movePositions(c.first..<c.end, to: next)
                    c.shift(next - c.first)
                }
                next = c.end
                g.coordinates = c
            }
            for i in g.members.indices { gather(&g.members[i], next: &next, &builder) }
        }

        /// Where in the input `offset` is, as the reasons say it.
        func place(_ offset: Int) -> String {
            let (line, column) = JSONScanner.lineAndColumn(scanner.bytes, offset)
            return "line \(line), column \(column)"
        }

        /// A geometry's pieces. In a GeometryCollection an empty member is no piece and the others stay.
        func add(_ g: Geometry, _ builder: inout UserLayerBuilder, nesting: Int, inCollection: Bool = false) {
            let type = g.type ?? ""
            if type == "GeometryCollection" {
                guard nesting < 32 else { return builder.reject("geometry collections nested more than 32 deep") }
                guard g.hasMembers else { return builder.reject("a GeometryCollection without geometries") }
                for member in g.members { add(member, &builder, nesting: nesting + 1, inCollection: true) }
                return
            }
            let wanted: Int
            switch type {
            case "Point": wanted = 0
            case "MultiPoint", "LineString": wanted = 1
            case "MultiLineString", "Polygon": wanted = 2
            case "MultiPolygon": wanted = 3
            default:
                return builder.reject(type.isEmpty ? "a geometry without a type" : "an unknown geometry type '\(type)'")
            }
            guard let c = g.coordinates else { return builder.reject("a \(type) without coordinates") }
            if let bad = c.bad { return builder.reject("\(place(bad.offset)): \(bad.reason)") }
            // An empty geometry (RFC 7946 §3.1: allowed) draws nothing; in a collection it is no member.
            guard let depth = c.depth, c.end > c.first else {
                if !inCollection, c.depth == nil { builder.reject("an empty \(type)") }
                return
            }
            guard depth == wanted else {
                return builder.reject("a \(type) with coordinates nested \(depth) deep (\(wanted) expected)")
            }
            switch type {
            case "Point": builder.addPiece(.point, ringEnds: [c.end])
            case "MultiPoint": for i in c.first..<c.end { builder.addPiece(.point, ringEnds: [i + 1]) }
            case "LineString": builder.addPiece(.lineString, ringEnds: [c.end])
            case "MultiLineString": for end in c.levels[0] { builder.addPiece(.lineString, ringEnds: [end]) }
            case "Polygon": builder.addPiece(.polygon, ringEnds: c.levels[0])
            default:  // MultiPolygon
                var start = 0
                for end in c.levels[1] {
                    builder.addPiece(.polygon, ringEnds: Array(c.levels[0][start..<end]))
                    start = end
                }
            }
        }
    }
}
