/// KML's driver: XML whose root is `kml` or names OGC's or Google's namespace, or a zip that is a KMZ
/// (so named, or its first entry a `.kml`, as GDAL's are); `.kml`, `.kmz`.
public struct KMLDriver: FormatDriver {
    public let format = UserDataFormat.kml
    public let title = "KML"
    public let extensions = ["kml", "kmz"]
    public init() {}
    public func claims(content head: ArraySlice<UInt8>, extension ext: String) -> Bool {
        if head.first == UInt8(ascii: "<") { return UserDataReader.xmlFormat(Array(head.prefix(65_536))) == .kml }
        guard ZipEntries.isZip(head) else { return false }
        let name = head.dropFirst(30).prefix(Int(head.dropFirst(26).first ?? 0))
        return ext == "kmz" || String(decoding: name, as: UTF8.self).lowercased().hasSuffix(".kml")
    }
    public func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?) throws(MapDataError)
        -> UserLayerData
    { try KMLReader.read(bytes, file: file, progress: progress) }
    public let fuzzSample = """
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>\
        <Placemark><name>Torni</name><description>a <b>tall</b> one</description><ExtendedData><Data name="k">\
        <value>v</value></Data></ExtendedData><MultiGeometry><Point><coordinates>24.94,60.17,0</coordinates></Point>\
        <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs>\
        </Polygon><gx:Track><when>2026-01-01T00:00:00Z</when><gx:coord>24.9 60.1 0</gx:coord></gx:Track></MultiGeometry>\
        </Placemark></Document></kml>
        """
    public let fuzzTokens = ["<", ">", "</", "&", "<!ENTITY a \"x\">", ",", " ", "\r\n", "\0"]
}

/// Reads KML 2.2 (OGC 07-147r2) and KMZ (a zip whose first `.kml`, `doc.kml` preferred, is read): each
/// Placemark with a Point, LineString, LinearRing, Polygon (outer and inner boundaries), a Google
/// `gx:Track` or KML 2.3 `Track` (its `coord`s a line, its `when`s kept as properties), a `MultiTrack`,
/// or a MultiGeometry of them; its name, description (all its text, HTML children included) and
/// ExtendedData values as properties. Altitudes are ignored.
public enum KMLReader: BufferReader {
    /// The layer of `bytes`, the contents of `file` (a KMZ: its KML).
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress? = nil)
        throws(MapDataError) -> UserLayerData
    {
        if ZipEntries.isZip(bytes) {
            let kml = try kmlOfKMZ(bytes, file: file)
            return try kml.withUnsafeBufferPointer { buffer throws(MapDataError) in
                try read(buffer, file: file, progress: progress)
            }
        }
        return try Windows1252.readingLegacyText(bytes) { b throws(MapDataError) in
            let handler = Handler()
            try XMLEvents.read(b, file: file, handler: handler, progress: progress)
            return handler.builder.finished()
        }
    }

    /// The KML a KMZ holds: `doc.kml`, else its first `.kml` (KML 2.2 §15.2), inflated up to
    /// `ReadLimits.wholeInputBytes`.
    static func kmlOfKMZ(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(MapDataError) -> [UInt8] {
        guard let zip = ZipEntries(bytes) else {
            throw MapDataError(file: file, .badInput("a damaged zip (no central directory)"))
        }
        let kmls = zip.entries.filter { $0.name.lowercased().hasSuffix(".kml") }
        guard let entry = kmls.first(where: { $0.name.lowercased() == "doc.kml" }) ?? kmls.first else {
            throw MapDataError(file: file, .badInput("a KMZ without a .kml inside"))
        }
        switch zip.data(entry, limit: ReadLimits.wholeInputBytes) {
        case .success(let kml): return kml
        case .failure(.method(let m)):
            throw MapDataError(
                file: file, .badInput("\(entry.name) is compressed by method \(m), which termmap does not read"))
        case .failure(.damagedOrTooLarge):
            throw MapDataError(
                file: file,
                .badInput("\(entry.name) is damaged or inflates past \(ReadLimits.wholeInputBytes >> 30) GB"))
        }
    }

    /// `lon,lat[,alt]` tuples separated by white space (KML 2.2 §16.9.1, `kml:coordinatesType`). ASCII
    /// text is read from its bytes (a Character each made Google's tracks six times slower to read than
    /// expat parses them); any other goes through the strings, with the same result.
    static func coordinates(_ text: String) -> [(Double, Double)]? {
        var text = text
        if text.withUTF8(XMLText.isASCII) { return text.withUTF8(asciiCoordinates) }
        return stringCoordinates(text)
    }

    /// Coordinates read through the strings: words by `Character.isWhitespace`, numbers by `Double`
    /// (what text that is not ASCII takes; the bytes' way must give the same).
    static func stringCoordinates(_ text: String) -> [(Double, Double)]? {
        var out: [(Double, Double)] = []
        for tuple in text.split(whereSeparator: \.isWhitespace) {
            let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else { return nil }
            out.append((lon, lat))
        }
        return out
    }

    /// ASCII white space, as `Character.isWhitespace` takes it: tab to carriage return, and space.
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// The words of ASCII `bytes`, between white space.
    static func words(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Bool) {
        var i = 0
        while i < bytes.count {
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            var end = i
            while end < bytes.count, !isSpace(bytes[end]) { end += 1 }
            if end > i, !body(i..<end) { return }
            i = end
        }
    }

    /// `coordinates(_:)` of ASCII text, from its bytes: each word's first two `,`-separated numbers.
    static func asciiCoordinates(_ bytes: UnsafeBufferPointer<UInt8>) -> [(Double, Double)]? {
        var out: [(Double, Double)] = []
        var valid = true
        words(bytes) { word in
            let comma = bytes[word].firstIndex(of: 0x2C) ?? word.upperBound
            let next = comma < word.upperBound ? bytes[(comma + 1)..<word.upperBound].firstIndex(of: 0x2C) : nil
            guard comma < word.upperBound,
                let lon = XMLText.number(UnsafeBufferPointer(rebasing: bytes[word.lowerBound..<comma])),
                let lat = XMLText.number(UnsafeBufferPointer(rebasing: bytes[(comma + 1)..<(next ?? word.upperBound)]))
            else {
                valid = false
                return false
            }
            out.append((lon, lat))
            return true
        }
        return valid ? out : nil
    }

    /// `trackCoordinate(_:)` of ASCII text, from its bytes: its first two words as numbers.
    static func asciiTrackCoordinate(_ bytes: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
        var found: [Range<Int>] = []
        words(bytes) { word in
            found.append(word)
            return found.count < 2
        }
        guard found.count == 2, let lon = XMLText.number(UnsafeBufferPointer(rebasing: bytes[found[0]])),
            let lat = XMLText.number(UnsafeBufferPointer(rebasing: bytes[found[1]]))
        else { return nil }
        return (lon, lat)
    }

    /// `lon lat[ alt]` (a `gx:coord`).
    static func trackCoordinate(_ text: String) -> (Double, Double)? {
        var text = text
        if text.withUTF8(XMLText.isASCII) { return text.withUTF8(asciiTrackCoordinate) }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else { return nil }
        return (lon, lat)
    }

    /// What the callbacks of one parse build (touched by them alone, one at a time: no access overlaps
    /// another, so none is checked at run time, as `XMLEvents`' own state).
    final class Handler: XMLHandler {
        @exclusivity(unchecked) var builder = UserLayerBuilder()
        @exclusivity(unchecked) var inPlacemark = false
        @exclusivity(unchecked) var path: [String] = []
        @exclusivity(unchecked) var properties: [(String, String?)] = []
        /// The polygon being read: its rings, the outer first.
        @exclusivity(unchecked) var rings: [[(Double, Double)]] = []
        @exclusivity(unchecked) var outer: [(Double, Double)]?
        @exclusivity(unchecked) var dataName: String?
        @exclusivity(unchecked) var pieces = 0
        /// The track being read: its coordinates, and its times (all of a Placemark's tracks).
        @exclusivity(unchecked) var track: [(Double, Double)] = []
        @exclusivity(unchecked) var times: [String] = []
        /// The elements read as features: Placemarks, and GroundOverlays (the box their image covers).
        static let featureElements: Set<String> = ["Placemark", "GroundOverlay"]
        /// A GroundOverlay's LatLonBox as it is read.
        @exclusivity(unchecked) var box: [String: Double] = [:]

        /// The text elements a Placemark's reading needs (the most frequent first: a switch on strings
        /// compares them in order).
        func collectsText(_ name: String) -> Bool {
            guard inPlacemark else { return false }
            switch name {
            case "coord", "when", "coordinates", "name", "description", "value", "SimpleData", "north", "south",
                "east", "west":
                return true
            default: return false
            }
        }

        func start(_ name: String, attributes: XMLAttributes) {
            path.append(name)
            switch name {
            case "Placemark", "GroundOverlay":
                inPlacemark = true
                properties = []
                pieces = 0
                times = []
                box = [:]
            case "Polygon":
                rings = []
                outer = nil
            case "Track": track = []
            case "Data": dataName = attributes.value("name")
            case "SimpleData": dataName = attributes.value("name")
            default: break
            }
        }

        func end(_ name: String, text: String) {
            defer { path.removeLast() }
            guard inPlacemark else { return }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch name {
            case "name", "description":
                if Self.featureElements.contains(parent) { properties.append((name, text.trimmedOfWhiteSpace)) }
            case "north", "south", "east", "west":
                if parent == "LatLonBox", let v = Double(text.trimmedOfWhiteSpace) { box[name] = v }
            case "LatLonBox":
                // A GroundOverlay's box (its rotation left aside), as togeojson and GDAL make it.
                if let n = box["north"], let s = box["south"], let e = box["east"], let w = box["west"] {
                    add(.polygon, [[(w, s), (e, s), (e, n), (w, n), (w, s)]])
                }
            case "value":
                if parent == "Data", let dataName { properties.append((dataName, text.trimmedOfWhiteSpace)) }
            case "SimpleData":
                if let dataName { properties.append((dataName, text.trimmedOfWhiteSpace)) }
            case "when":
                if parent == "Track" { times.append(XMLText.trimmed(text)) }
            case "coord":
                if parent == "Track" {
                    if let p = KMLReader.trackCoordinate(text) {
                        track.append(p)
                    } else {
                        builder.reject("a track coordinate that is not 'lon lat alt'")
                    }
                }
            case "Track":
                // An empty one is no piece (Google's location history has them beside the real ones).
                if !track.isEmpty { add(track.count == 1 ? .point : .lineString, [track]) }
            case "coordinates":
                guard let points = KMLReader.coordinates(text) else {
                    builder.reject("coordinates that are not lon,lat tuples")
                    return
                }
                let geometry = parent
                let boundary = path.count >= 4 ? path[path.count - 3] : ""
                // An empty geometry is no piece; the Placemark keeps its others.
                guard !points.isEmpty else { return }
                switch geometry {
                case "Point": add(.point, [[points[0]]])
                case "LineString": add(.lineString, [points])
                case "LatLonQuad":
                    // gx:LatLonQuad: the overlay's four corners.
                    add(.polygon, [points + (points.first.map { [$0] } ?? [])])
                case "LinearRing":
                    if boundary == "outerBoundaryIs" {
                        outer = points
                    } else if boundary == "innerBoundaryIs" {
                        rings.append(points)
                    } else {
                        add(.polygon, [points])
                    }
                default: break
                }
            case "Polygon":
                if let outer {
                    add(.polygon, [outer] + rings)
                } else {
                    builder.reject("a Polygon without an outer boundary")
                }
            case "Placemark", "GroundOverlay":
                inPlacemark = false
                if pieces == 0 { builder.reject("a Placemark without a geometry") }
                // A track's times, for the time they are played in: the first, the last, and all of them.
                if let first = times.first, let last = times.last {
                    properties += [("begin", first), ("end", last), ("when", times.joined(separator: " "))]
                }
                let label = properties.first { $0.0 == "name" }?.1
                builder.endFeature(id: nil, name: label.flatMap { $0.isEmpty ? nil : $0 }, properties: properties)
            default: break
            }
        }

        func add(_ type: PieceType, _ rings: [[(Double, Double)]]) {
            builder.addPiece(type, rings: rings)
            pieces += 1
        }
    }
}
