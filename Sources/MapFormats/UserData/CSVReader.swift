import Support

/// CSV's driver: `.csv`, `.tsv`, `.txt`, or text whose first line holds a delimiter and a coordinate
/// column's name (`lat`, `wkt`…).
public struct CSVDriver: FormatDriver {
    public let format = UserDataFormat.csv
    public let title = "CSV"
    public let extensions = ["csv", "tsv", "txt"]
    public init() {}
    public func claims(content head: ArraySlice<UInt8>, extension ext: String) -> Bool { false }
    public func claims(firstLine line: String) -> Bool {
        let names = line.lowercased().split(whereSeparator: { ",;\t|".contains($0) }).map {
            String($0).trimmingCharacters(in: "\"").trimmingCharacters(in: " ")
        }
        return names.contains { CSVReader.latitudeNames.contains($0) || CSVReader.wktNames.contains($0) }
    }
    public func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?) throws(MapDataError)
        -> UserLayerData
    { try CSVReader.read(bytes, file: file, progress: progress) }
    public let fuzzSample = """
        id;name;lat;lon;wkt
        1;"Torni; the ""tall"" one";60.17;24.94;
        2;Kallio;+60.18;.5e1;
        3;;;;"POLYGON((0 0,1 0,1 1,0 0))"
        4;x;60,2;24,9;CIRCULARSTRING(0 0,1 1,2 0)
        """
    public let fuzzTokens = ["\"", ",", ";", "\t", "\r\n", "\n", "(", ")", "\0"]
}

/// Reads CSV and TSV (RFC 4180 quoting; the delimiter sniffed from the header line: tab, semicolon,
/// comma or pipe, whichever it holds most of outside quotes). Coordinates come from columns named
/// lat/latitude/y and lon/lng/long/longitude/x (any case), or from a WKT column (`wkt`, `geometry`,
/// `the_geom`, `geom`); every other column is a property.
public enum CSVReader: BufferReader {
    static let latitudeNames: Set<String> = ["lat", "latitude", "y"]
    static let longitudeNames: Set<String> = ["lon", "lng", "long", "longitude", "x"]
    static let wktNames: Set<String> = ["wkt", "geometry", "the_geom", "geom"]

    /// What a field that is not UTF-8 says.
    static let invalidUTF8 = "invalid UTF-8"

    /// The layer of `bytes`, the contents of `file`: UTF-8, else (a field that is not) read again as
    /// Windows-1252, the legacy single-byte encoding such files are in (Latin-1's printable characters
    /// among them), which the layer's notes say.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress? = nil)
        throws(MapDataError) -> UserLayerData
    {
        try Windows1252.readingLegacyText(bytes) { b throws(MapDataError) in
            try readUTF8(b, file: file, progress: progress)
        }
    }

    /// The layer of `bytes` in UTF-8 (a field that is not fails, naming its line and column).
    static func readUTF8(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?)
        throws(MapDataError) -> UserLayerData
    {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let delimiter = sniff(bytes, from: start)
        var rows = Rows(bytes: bytes, at: start, delimiter: delimiter)
        func fail(_ why: String, line: Int, column: Int = 1) -> MapDataError {
            MapDataError(file: file, .syntax(line: line, column: column, why))
        }
        guard try rows.next(file: file) else { throw MapDataError(file: file, .badInput("an empty file")) }
        let names = try (0..<rows.fields.count).map { c throws(MapDataError) in
            try rows.text(c, file: file).trimmingCharacters(in: " ")
        }
        let headerLine = rows.line
        let lower = names.map { $0.lowercased() }
        let latColumn = lower.firstIndex { latitudeNames.contains($0) }
        let lonColumn = lower.firstIndex { longitudeNames.contains($0) }
        let wktColumn = lower.firstIndex { wktNames.contains($0) }
        guard (latColumn != nil && lonColumn != nil) || wktColumn != nil else {
            throw fail(
                "no coordinate columns (name them lat and lon, latitude and longitude, y and x, or give a wkt column)",
                line: headerLine)
        }
        let propertyColumns = names.indices.filter {
            $0 != latColumn && $0 != lonColumn && (latColumn != nil && lonColumn != nil || $0 != wktColumn)
        }
        let nameColumn = lower.firstIndex(of: "name") ?? lower.firstIndex(of: "title")
        let namePosition = nameColumn.flatMap { propertyColumns.firstIndex(of: $0) }
        var builder = UserLayerBuilder(labelKey: nameColumn.map { names[$0] })
        builder.declareColumns(propertyColumns.map { names[$0] })
        var toldAt = 0
        var values = [String?](repeating: nil, count: propertyColumns.count)
        var read = 0
        let firstRow = rows.at
        while try rows.next(file: file) {
            if let progress, rows.at - toldAt >= 1 << 20 {
                toldAt = rows.at
                progress(Double(rows.at) / Double(max(1, bytes.count)))
            }
            read += 1
            if read == 1000 {
                // Room for the rest, from the first thousand rows: no array doubles (and, for a moment,
                // holds twice what it holds) on the way.
                let rowBytes = max(1, (rows.at - firstRow) / read)
                let more = (bytes.count - rows.at) / rowBytes + 16
                builder.reserve(features: more + more / 16, pointsEach: 1, propertyBytes: rowBytes / 2)
            }
            if rows.fields.count == 1 && rows.isEmpty(0) { continue }  // a blank line
            let line = rows.line
            if let latColumn, let lonColumn {
                let lat = rows.number(latColumn)
                let lon = rows.number(lonColumn)
                if let lat, let lon {
                    builder.addPoint(longitude: lon, latitude: lat)
                } else {
                    let latText = (try? rows.text(latColumn, file: file))?.trimmingCharacters(in: " ") ?? ""
                    let lonText = (try? rows.text(lonColumn, file: file))?.trimmingCharacters(in: " ") ?? ""
                    builder.reject(
                        "line \(line): no number in its coordinate columns (\(Self.excerpt(lonText)), \(Self.excerpt(latText)))"
                    )
                }
            } else if let wktColumn, wktColumn < rows.fields.count {
                switch WKT.parse(try rows.text(wktColumn, file: file)) {
                case .success(let pieces): for p in pieces { builder.addPiece(p.type, rings: p.rings) }
                case .failure(let why): builder.reject("line \(line): \(why)")
                }
            }
            for (i, c) in propertyColumns.enumerated() {
                values[i] = c < rows.fields.count ? try rows.text(c, file: file) : nil
            }
            let name = namePosition.flatMap { values[$0] }
            builder.endFeature(id: nil, name: name.flatMap { $0.isEmpty ? nil : $0 }, values: values)
        }
        return builder.finished()
    }

    /// A field as a reason quotes it: on one line (a quoted field may hold line breaks), its first 40
    /// characters, escaped as JSON escapes them.
    static func excerpt(_ field: String) -> String {
        field.count > 40 ? jsonQuoted(String(field.prefix(40))) + "…" : jsonQuoted(field)
    }

    /// The delimiter the first line holds most of outside quotes (a comma when it holds none).
    static func sniff(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt8 {
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for b in bytes[start...] {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted && (b == 0x0A || b == 0x0D) { break }
            if !quoted, [0x09, UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "|")].contains(b) {
                counts[b, default: 0] += 1
            }
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
    /// breaks CRLF, LF or a lone CR (old Mac files; inside quotes they are part of the field). A record's fields are ranges of the
    /// input, or, for a quoted field, of `unquoted` (its text with the quotes undone).
    struct Rows {
        let bytes: UnsafeBufferPointer<UInt8>
        var at: Int
        let delimiter: UInt8
        /// The line the next record starts on, and the one the last record started on.
        var nextLine = 1
        var line = 1
        /// The last record's fields: start, end, whether in `unquoted`, and the column each starts at.
        var fields: [(start: Int, end: Int, unquoted: Bool, column: Int)] = []
        var unquoted: [UInt8] = []

        /// Reads the next record into `fields`; false at the end.
        mutating func next(file: String) throws(MapDataError) -> Bool {
            guard at < bytes.count else { return false }
            line = nextLine
            fields.removeAll(keepingCapacity: true)
            unquoted.removeAll(keepingCapacity: true)
            var lineStart = at
            while true {
                // One field from `at`.
                let column = at - lineStart + 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "\"") {
                    let start = unquoted.count
                    at += 1
                    var closed = false
                    while at < bytes.count {
                        let b = bytes[at]
                        if b == UInt8(ascii: "\"") {
                            if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "\"") {
                                unquoted.append(b)
                                at += 2
                                continue
                            }
                            at += 1
                            closed = true
                            break
                        }
                        if b == 0x0A || (b == 0x0D && !(at + 1 < bytes.count && bytes[at + 1] == 0x0A)) {
                            nextLine += 1
                            lineStart = at + 1
                        }
                        unquoted.append(b)
                        at += 1
                    }
                    guard closed else {
                        throw MapDataError(
                            file: file, .syntax(line: line, column: 1, "a quoted field without its closing quote"))
                    }
                    // Text after the closing quote belongs to the field (what readers do with `"a"b`).
                    while at < bytes.count, bytes[at] != delimiter, bytes[at] != 0x0A, bytes[at] != 0x0D {
                        unquoted.append(bytes[at])
                        at += 1
                    }
                    fields.append((start, unquoted.count, true, column))
                } else {
                    let start = at
                    while at < bytes.count, bytes[at] != delimiter, bytes[at] != 0x0A, bytes[at] != 0x0D { at += 1 }
                    fields.append((start, at, false, column))
                }
                if at < bytes.count, bytes[at] == delimiter {
                    at += 1
                    continue
                }
                // The line break: CRLF, LF, or a CR alone.
                if at < bytes.count, bytes[at] == 0x0D {
                    at += 1
                    if at < bytes.count, bytes[at] == 0x0A { at += 1 }
                    nextLine += 1
                } else if at < bytes.count, bytes[at] == 0x0A {
                    at += 1
                    nextLine += 1
                }
                return true
            }
        }

        /// Field `c`'s bytes (none past the record's last field).
        func withField<R>(_ c: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            guard c < fields.count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            let f = fields[c]
            if f.unquoted {
                return unquoted.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[f.start..<f.end])) }
            }
            return body(UnsafeBufferPointer(rebasing: bytes[f.start..<f.end]))
        }

        /// Whether field `c` is empty.
        func isEmpty(_ c: Int) -> Bool { fields[c].start == fields[c].end }

        /// Field `c` as text (one line naming where when it is not UTF-8).
        func text(_ c: Int, file: String) throws(MapDataError) -> String {
            guard let s = withField(c, { String(validating: $0, as: UTF8.self) }) else {
                throw MapDataError(
                    file: file,
                    .syntax(line: line, column: c < fields.count ? fields[c].column : 1, CSVReader.invalidUTF8))
            }
            return s
        }

        /// Field `c` as a number (spaces around it allowed), nil when it is not one: decimal only, with a
        /// sign, a point, an exponent (`+1.5`, `.5`, `5.`, `060.17` too); not hexadecimal (`0x10`), not
        /// `inf` or `nan`, which a language's own parser would take.
        func number(_ c: Int) -> Double? {
            guard c < fields.count else { return nil }
            return withField(c) { field -> Double? in
                var (from, to) = (0, field.count)
                while from < to, field[from] == 0x20 || field[from] == 0x09 { from += 1 }
                while to > from, field[to - 1] == 0x20 || field[to - 1] == 0x09 { to -= 1 }
                guard from < to else { return nil }
                var scanner = JSONScanner(UnsafeBufferPointer(rebasing: field[from..<to]))
                if let n = try? scanner.number(), n.text.upperBound == to - from { return n.value }
                return CSVReader.looseDecimal(Array(field[from..<to]))
            }
        }
    }

    /// A decimal number JSON does not write but tables do (`+1.5`, `.5`, `5.`, `060.17`), made JSON's
    /// form and read exactly; nil for anything else.
    static func looseDecimal(_ text: [UInt8]) -> Double? {
        var t = text
        var sign: [UInt8] = []
        if let first = t.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            if first == UInt8(ascii: "-") { sign = [first] }
            t.removeFirst()
        }
        guard
            t.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e")
                    || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
            }),
            t.contains(where: { $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        // Leading zeros of the whole part go (one stays), a point gets a digit on either side.
        while t.count > 1, t[0] == 0x30, t[1] >= 0x30 && t[1] <= 0x39 { t.removeFirst() }
        if t.first == UInt8(ascii: ".") { t.insert(0x30, at: 0) }
        if let dot = t.firstIndex(of: UInt8(ascii: ".")),
            dot + 1 == t.count || !(t[dot + 1] >= 0x30 && t[dot + 1] <= 0x39)
        {
            t.insert(0x30, at: dot + 1)
        }
        let normal = sign + t
        return normal.withUnsafeBufferPointer { buffer -> Double? in
            var scanner = JSONScanner(buffer)
            guard let n = try? scanner.number(), n.text.upperBound == buffer.count else { return nil }
            return n.value
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
