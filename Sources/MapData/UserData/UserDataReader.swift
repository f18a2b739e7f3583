/// Told how far a reader has come: the share of the file's bytes read, 0…1 (called every megabyte or so).
public typealias ReadProgress = @Sendable (Double) -> Void

/// Reads a user's file by its content first and its extension second: GeoJSON (`{`, `[`, or an RFC 8142
/// record separator), CSV/TSV, GPX and KML (XML naming `gpx` or `kml`). Anything else is for GDAL.
public enum UserDataReader {
    /// What a file's bytes and name say it is (nil: a format for GDAL's `ogr2ogr`).
    public static func format(of bytes: [UInt8], file: String) -> UserDataFormat? {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        let ext =
            file.split(separator: "/").last.flatMap { name in name.contains(".") ? name.split(separator: ".").last : nil
            }
            .map { $0.lowercased() } ?? ""
        if i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"), 0x1E: return .geojson
            case UInt8(ascii: "<"):
                if let format = xmlFormat(Array(bytes[i..<min(bytes.count, i + 65_536)])) { return format }
            case 0x50 where ZipEntries.isZip(bytes[i...]):
                // A zip: a KMZ when it is named so, or when its first entry is a KML (what GDAL's KMZ holds).
                let name = bytes.dropFirst(i + 30).prefix(Int(bytes.dropFirst(i + 26).first ?? 0))
                if ext == "kmz" || String(decoding: name, as: UTF8.self).lowercased().hasSuffix(".kml") { return .kml }
            default: break
            }
        }
        switch ext {
        case "geojson", "json", "geojsonl", "geojsons", "ndjson", "geojsonseq": return .geojson
        case "csv", "tsv", "txt": return .csv
        case "gpx": return .gpx
        case "kml", "kmz": return .kml
        default: break
        }
        // Text whose first line holds a delimiter and a coordinate column's name: CSV.
        let firstLine = bytes[i...].prefix { $0 != 0x0A && $0 != 0x0D }
        if !firstLine.contains(0), let line = String(validating: Array(firstLine), as: UTF8.self)?.lowercased() {
            let names = line.split(whereSeparator: { ",;\t|".contains($0) }).map {
                String($0).trimmingCharacters(in: "\"").trimmingCharacters(in: " ")
            }
            if names.contains(where: { CSVReader.latitudeNames.contains($0) || CSVReader.wktNames.contains($0) }) {
                return .csv
            }
        }
        return nil
    }

    /// What an XML document is by its root element: `gpx` or `kml` by local name whatever its prefix
    /// (`<g:gpx xmlns:g="…">`), or by the namespace it declares (Topografix's GPX, OGC's or Google's
    /// KML); nil for other XML. Declarations, comments and a doctype before the root are skipped.
    static func xmlFormat(_ head: [UInt8]) -> UserDataFormat? {
        let text = String(decoding: head, as: UTF8.self)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            // `<?…?>`, `<!--…-->`, `<!DOCTYPE…>`: not the root.
            if rest.hasPrefix("?") || rest.hasPrefix("!") {
                let end = rest.hasPrefix("!--") ? "-->" : ">"
                guard let close = after(end, in: rest) else { return nil }
                rest = rest[close...]
                continue
            }
            let name = rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            let local = (name.split(separator: ":").last.map(String.init) ?? "").lowercased()
            if local == "gpx" { return .gpx }
            if local == "kml" { return .kml }
            let tag = rest.prefix { $0 != ">" }.lowercased()
            if tag.contains("topografix.com/gpx/") { return .gpx }
            if tag.contains("opengis.net/kml/") || tag.contains("earth.google.com/kml/") { return .kml }
            return nil
        }
        return nil
    }

    /// Where `text` first ends in `s`, nil when it is not there.
    static func after(_ text: String, in s: Substring) -> Substring.Index? {
        var i = s.startIndex
        while i < s.endIndex {
            if s[i...].hasPrefix(text) { return s.index(i, offsetBy: text.count) }
            i = s.index(after: i)
        }
        return nil
    }

    /// The features of `bytes` in `format`; a file with none usable fails (one line naming it).
    public static func read(_ bytes: [UInt8], format: UserDataFormat, file: String, progress: ReadProgress? = nil)
        throws(MapDataError) -> UserLayerData
    {
        try bytes.withUnsafeBufferPointer { buffer throws(MapDataError) in
            try read(buffer, format: format, file: file, progress: progress)
        }
    }

    /// The features of `bytes` in `format`; a file with none usable fails (one line naming it).
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, format: UserDataFormat, file: String, progress: ReadProgress? = nil
    )
        throws(MapDataError) -> UserLayerData
    {
        let data: UserLayerData
        switch format {
        case .geojson, .ogr, .stream: data = try GeoJSONReader.read(bytes, file: file, progress: progress)
        case .csv: data = try CSVReader.read(bytes, file: file, progress: progress)
        case .gpx: data = try GPXReader.read(bytes, file: file, progress: progress)
        case .kml: data = try KMLReader.read(bytes, file: file, progress: progress)
        }
        guard data.count > 0 else {
            let why =
                data.firstSkipReason.map { "no usable feature (\(data.skipped) left out; the first: \($0))" }
                ?? "no features"
            throw MapDataError(file: file, .badInput(why))
        }
        return data
    }
}
