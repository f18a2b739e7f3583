/// The features of a stream of lines (`producer | termmap -`, `--follow FILE`): each line one JSON
/// object, a GeoJSON Feature or geometry, or `{"id":…, "lat":…, "lon":…, "label":…, "color":…}`. A line
/// whose `id` was seen replaces that feature (a moving marker); `{"id":…, "delete":true}` removes it.
/// Only the live features are kept: replaced ones are dropped as they pile up.
public struct LiveFeatures: Sendable {
    private var builder = UserLayerBuilder(labelKey: "label")
    /// Lines that were not a feature.
    public private(set) var badLines = 0
    /// Lines taken.
    public private(set) var lines = 0
    /// The longest line taken (a longer one is a bad line: 256 MB).
    public static let maxLineBytes = ReadLimits.lineBytes

    /// No features yet.
    public init() {}

    /// Takes one line (without its line break); false when it was a bad line.
    @discardableResult
    public mutating func take(_ line: [UInt8]) -> Bool {
        lines += 1
        guard line.count <= Self.maxLineBytes else {
            badLines += 1
            if firstBadLine == nil { firstBadLine = (lines, nil) }
            return false
        }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return true }
        let ok = line.withUnsafeBufferPointer { buffer -> Bool in
            var scanner = JSONScanner(buffer)
            guard let value = try? scanner.value(), scanner.peek() == nil, case .object = value else { return false }
            if value["type"] != nil {
                let skippedBefore = builder.data.skipped
                do {
                    try GeoJSONReader.read(line, file: "-", into: &builder)
                } catch {
                    return false
                }
                // A feature it could not keep (bad coordinates) makes it a bad line too.
                return builder.data.skipped == skippedBefore
            }
            let id = Self.idText(value["id"])
            if case .bool(true)? = value["delete"] {
                guard let id else { return false }
                builder.delete(id: id)
                return true
            }
            guard case .number(let lat, _)? = value["lat"], case .number(let lon, _)? = value["lon"] else {
                return false
            }
            builder.addPiece(.point, rings: [[(lon, lat)]])
            // Its label: `label`, or `name` as a GeoJSON feature's.
            var label: String?
            var name: String?
            if case .string(let s)? = value["label"] { label = s }
            if case .string(let s)? = value["name"] { name = s }
            var properties: [(String, String?)] = []
            if let color = value["color"]?.propertyText { properties.append(("marker-color", color)) }
            if let label { properties.append(("label", label)) }
            if let name { properties.append(("name", name)) }
            return builder.endFeature(id: id, name: label ?? name, properties: properties)
        }
        if !ok {
            badLines += 1
            if firstBadLine == nil { firstBadLine = (lines, Array(line.prefix(1 << 20))) }
        }
        compactIfNeeded()
        return ok
    }

    /// Counts a line over `maxLineBytes` (not kept, only counted) as a bad line.
    public mutating func takeTooLong() {
        lines += 1
        badLines += 1
        if firstBadLine == nil { firstBadLine = (lines, nil) }
    }

    /// An id as the GeoJSON reader keys it (strings and numbers apart).
    static func idText(_ v: JSONTree?) -> String? {
        switch v {
        case .string(let s)?: "s" + s
        case .number(let n, _)?: "n\(n)"
        default: nil
        }
    }

    /// Drops replaced features once they outnumber the live ones.
    private mutating func compactIfNeeded() {
        if builder.replacedCount > 64 && builder.replacedCount > builder.count { builder.compact() }
    }

    /// The live features.
    public var features: UserLayerData { builder.finished() }

    /// How many features are live.
    public var count: Int { builder.count }

    /// The first line that was not a feature (its number from 1, and its first megabyte), to say why.
    public private(set) var firstBadLine: (number: Int, bytes: [UInt8]?)?

    /// Why the first bad line is bad, as the GeoJSON reader says it (its line and column in the input),
    /// or nil when there was none or it is read as a feature on its own.
    public var firstBadLineReason: String? {
        guard let (number, line) = firstBadLine else { return nil }
        guard let bytes = line else { return "<stdin>:\(number): a line over \(Self.maxLineBytes >> 20) MB" }
        do {
            _ = try GeoJSONReader.read(bytes, file: "<stdin>")
        } catch {
            if case .syntax(let line, let column, let why) = error.kind {
                return MapDataError(file: error.file, .syntax(line: line + number - 1, column: column, why)).description
            }
            return "<stdin>:\(number): " + String(error.description.dropFirst("<stdin>: ".count))
        }
        return "<stdin>:\(number): not a GeoJSON object nor a {\"lat\", \"lon\"} point"
    }
}
