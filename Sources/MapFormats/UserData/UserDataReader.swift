/// Told how far a reader has come: the share of the file's bytes read, 0…1 (called every megabyte or so).
public typealias ReadProgress = @Sendable (Double) -> Void

/// Reads a user's file by its content first and its extension second, through the format drivers
/// (`FormatDrivers`): GeoJSON (`{`, `[`, or an RFC 8142 record separator), CSV/TSV, GPX and KML (XML
/// naming `gpx` or `kml`), and any registered. Anything else is for GDAL.
public enum UserDataReader {
    /// What a file's bytes and name say it is (nil: a format for GDAL's `ogr2ogr`): the first driver
    /// that claims the content, else the first whose extensions hold the name's, else the first that
    /// claims the first line.
    public static func format(of bytes: [UInt8], file: String) -> UserDataFormat? {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        let ext =
            file.split(separator: "/").last.flatMap { name in name.contains(".") ? name.split(separator: ".").last : nil
            }
            .map { $0.lowercased() } ?? ""
        let drivers = FormatDrivers.all
        let head = bytes[i...]
        if let driver = drivers.first(where: { $0.claims(content: head, extension: ext) }) { return driver.format }
        if let driver = drivers.first(where: { $0.extensions.contains(ext) }) { return driver.format }
        let firstLine = head.prefix { $0 != 0x0A && $0 != 0x0D }
        guard !firstLine.contains(0), let line = String(validating: Array(firstLine), as: UTF8.self) else {
            return nil
        }
        return drivers.first { $0.claims(firstLine: line) }?.format
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
        guard let driver = FormatDrivers.driver(for: format) else {
            throw MapDataError(file: file, .badInput("no reader for the format \(format.rawValue)"))
        }
        let data = try driver.read(bytes, file: file, progress: progress)
        guard data.count > 0 else {
            let why =
                data.firstSkipReason.map { "no usable feature (\(data.skipped) left out; the first: \($0))" }
                ?? "no features"
            throw MapDataError(file: file, .badInput(why))
        }
        return data
    }
}
