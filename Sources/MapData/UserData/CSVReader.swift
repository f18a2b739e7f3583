/// Reads CSV and TSV (RFC 4180 quoting; the delimiter sniffed from the header line: tab, semicolon,
/// comma or pipe, whichever it holds most of outside quotes). Coordinates come from columns named
/// lat/latitude/y and lon/lng/long/longitude/x (any case), or from a WKT column (`wkt`, `geometry`,
/// `the_geom`, `geom`); every other column is a property.
public enum CSVReader {
    static let latitudeNames: Set<String> = ["lat", "latitude", "y"]
    static let longitudeNames: Set<String> = ["lon", "lng", "long", "longitude", "x"]
    static let wktNames: Set<String> = ["wkt", "geometry", "the_geom", "geom"]

    /// The layer of `bytes`, the contents of `file`.
    public static func read(_ bytes: [UInt8], file: String, progress: ReadProgress? = nil) throws(MapDataError) -> UserLayerData {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let delimiter = sniff(bytes, from: start)
        var rows = Rows(bytes: bytes, at: start, delimiter: delimiter)
        func fail(_ why: String, line: Int, column: Int = 1) -> MapDataError {
            MapDataError(file: file, .syntax(line: line, column: column, why))
        }
        guard let header = try rows.next(file: file) else { throw MapDataError(file: file, .badInput("an empty file")) }
        let names = header.fields.map { $0.trimmingCharacters(in: " ") }
        let lower = names.map { $0.lowercased() }
        let latColumn = lower.firstIndex { latitudeNames.contains($0) }
        let lonColumn = lower.firstIndex { longitudeNames.contains($0) }
        let wktColumn = lower.firstIndex { wktNames.contains($0) }
        guard (latColumn != nil && lonColumn != nil) || wktColumn != nil else {
            throw fail(
                "no coordinate columns (name them lat and lon, latitude and longitude, y and x, or give a wkt column)",
                line: header.line)
        }
        let propertyColumns = names.indices.filter {
            $0 != latColumn && $0 != lonColumn && (latColumn != nil && lonColumn != nil || $0 != wktColumn)
        }
        let nameColumn = lower.firstIndex(of: "name") ?? lower.firstIndex(of: "title")
        var builder = UserLayerBuilder()
        var toldAt = 0
        while let row = try rows.next(file: file) {
            if let progress, rows.at - toldAt >= 1 << 20 {
                toldAt = rows.at
                progress(Double(rows.at) / Double(max(1, bytes.count)))
            }
            if row.fields.count == 1 && row.fields[0].isEmpty { continue }  // a blank line
            let line = row.line
            func field(_ c: Int?) -> String? { c.flatMap { $0 < row.fields.count ? row.fields[$0] : nil } }
            if let latColumn, let lonColumn {
                let latText = field(latColumn)?.trimmingCharacters(in: " ") ?? ""
                let lonText = field(lonColumn)?.trimmingCharacters(in: " ") ?? ""
                if let lat = Double(latText), let lon = Double(lonText) {
                    builder.addPiece(.point, rings: [[(lon, lat)]])
                } else {
                    builder.reject("line \(line): no number in its coordinate columns ('\(lonText)', '\(latText)')")
                }
            } else if let wkt = field(wktColumn) {
                switch WKT.parse(wkt) {
                case .success(let pieces): for p in pieces { builder.addPiece(p.type, rings: p.rings) }
                case .failure(let why): builder.reject("line \(line): \(why)")
                }
            }
            let properties = propertyColumns.map { c in (names[c], field(c)) }
            builder.endFeature(id: nil, name: field(nameColumn).flatMap { $0.isEmpty ? nil : $0 }, properties: properties)
        }
        return builder.finished()
    }

    /// The delimiter the first line holds most of outside quotes (a comma when it holds none).
    static func sniff(_ bytes: [UInt8], from start: Int) -> UInt8 {
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for b in bytes[start...] {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted && (b == 0x0A || b == 0x0D) { break }
            if !quoted, [0x09, UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "|")].contains(b) { counts[b, default: 0] += 1 }
        }
        // Ties go to the first of tab, semicolon, comma, pipe.
        var best = UInt8(ascii: ",")
        var most = 0
        for d in [0x09, UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "|")] {
            let n = counts[d] ?? 0
            if n > most { (best, most) = (d, n) }
        }
        return best
    }

    /// Records of RFC 4180: fields split by the delimiter, quotes doubled inside quoted fields, line
    /// breaks CRLF or LF (inside quotes they are part of the field).
    struct Rows {
        let bytes: [UInt8]
        var at: Int
        let delimiter: UInt8
        var line = 1

        /// The next record and the line it starts on; nil at the end.
        mutating func next(file: String) throws(MapDataError) -> (fields: [String], line: Int)? {
            guard at < bytes.count else { return nil }
            let startLine = line
            var fields: [String] = []
            var field: [UInt8] = []
            var quoted = false
            var wasQuoted = false
            func text(_ f: [UInt8], column: Int) throws(MapDataError) -> String {
                guard let s = String(validating: f, as: UTF8.self) else {
                    throw MapDataError(file: file, .syntax(line: line, column: column, "invalid UTF-8"))
                }
                return s
            }
            var lineStart = at
            while at < bytes.count {
                let b = bytes[at]
                if quoted {
                    if b == UInt8(ascii: "\"") {
                        if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "\"") {
                            field.append(b)
                            at += 2
                            continue
                        }
                        quoted = false
                        at += 1
                        continue
                    }
                    if b == 0x0A {
                        line += 1
                        lineStart = at + 1
                    }
                    field.append(b)
                    at += 1
                    continue
                }
                switch b {
                case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                    quoted = true
                    wasQuoted = true
                case delimiter:
                    fields.append(try text(field, column: at - lineStart + 1))
                    field.removeAll(keepingCapacity: true)
                    wasQuoted = false
                case 0x0D where at + 1 < bytes.count && bytes[at + 1] == 0x0A:
                    break
                case 0x0A:
                    at += 1
                    line += 1
                    fields.append(try text(field, column: at - lineStart))
                    return (fields, startLine)
                default:
                    field.append(b)
                }
                at += 1
            }
            if quoted {
                throw MapDataError(file: file, .syntax(line: startLine, column: 1, "a quoted field without its closing quote"))
            }
            fields.append(try text(field, column: at - lineStart + 1))
            return (fields, startLine)
        }
    }
}

extension String {
    /// The string without spaces, tabs and line breaks at either end.
    var trimmedOfWhiteSpace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// The string without `c` at either end.
    func trimmingCharacters(in c: Character) -> String {
        var s = Substring(self)
        while s.first == c { s.removeFirst() }
        while s.last == c { s.removeLast() }
        return String(s)
    }
}
