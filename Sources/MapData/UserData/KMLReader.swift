/// Reads KML 2.2 (OGC 07-147r2): each Placemark with a Point, LineString, LinearRing, Polygon (outer
/// and inner boundaries) or a MultiGeometry of them; its name, description and ExtendedData values as
/// properties. Altitudes are ignored.
public enum KMLReader {
    /// The layer of `bytes`, the contents of `file`.
    public static func read(_ bytes: [UInt8], file: String, progress: ReadProgress? = nil) throws(MapDataError) -> UserLayerData {
        try bytes.withUnsafeBufferPointer { buffer throws(MapDataError) in try read(buffer, file: file, progress: progress) }
    }

    /// The layer of `bytes`, the contents of `file`.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress? = nil)
        throws(MapDataError) -> UserLayerData
    {
        let handler = Handler()
        try XMLEvents.read(bytes, file: file, handler: handler, progress: progress)
        return handler.builder.finished()
    }

    /// `lon,lat[,alt]` tuples separated by white space (KML 2.2 §16.9.1, `kml:coordinatesType`).
    static func coordinates(_ text: String) -> [(Double, Double)]? {
        var out: [(Double, Double)] = []
        for tuple in text.split(whereSeparator: \.isWhitespace) {
            let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else { return nil }
            out.append((lon, lat))
        }
        return out
    }

    final class Handler: XMLHandler {
        var builder = UserLayerBuilder()
        var inPlacemark = false
        var path: [String] = []
        var text = ""
        var properties: [(String, String?)] = []
        /// The polygon being read: its rings, the outer first.
        var rings: [[(Double, Double)]] = []
        var outer: [(Double, Double)]?
        var dataName: String?
        var pieces = 0

        func start(_ name: String, attributes: [String: String]) {
            path.append(name)
            text = ""
            switch name {
            case "Placemark":
                inPlacemark = true
                properties = []
                pieces = 0
            case "Polygon":
                rings = []
                outer = nil
            case "Data": dataName = attributes["name"]
            case "SimpleData": dataName = attributes["name"]
            default: break
            }
        }

        func text(_ t: String) { text += t }

        func end(_ name: String) {
            defer {
                path.removeLast()
                text = ""
            }
            guard inPlacemark else { return }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch name {
            case "name", "description":
                if parent == "Placemark" { properties.append((name, text.trimmedOfWhiteSpace)) }
            case "value":
                if parent == "Data", let dataName { properties.append((dataName, text.trimmedOfWhiteSpace)) }
            case "SimpleData":
                if let dataName { properties.append((dataName, text.trimmedOfWhiteSpace)) }
            case "coordinates":
                guard let points = KMLReader.coordinates(text) else {
                    builder.reject("coordinates that are not lon,lat tuples")
                    return
                }
                let geometry = parent
                let boundary = path.count >= 4 ? path[path.count - 3] : ""
                switch geometry {
                case "Point":
                    if let p = points.first { add(.point, [[p]]) } else { builder.reject("a Point without coordinates") }
                case "LineString": add(.lineString, [points])
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
                if let outer { add(.polygon, [outer] + rings) } else { builder.reject("a Polygon without an outer boundary") }
            case "Placemark":
                inPlacemark = false
                if pieces == 0 { builder.reject("a Placemark without a geometry") }
                let label = properties.first { $0.0 == "name" }?.1
                builder.endFeature(id: nil, name: label.flatMap { $0.isEmpty ? nil : $0 }, properties: properties)
            default: break
            }
        }

        func add(_ type: UserGeometryType, _ rings: [[(Double, Double)]]) {
            builder.addPiece(type, rings: rings)
            pieces += 1
        }
    }
}
