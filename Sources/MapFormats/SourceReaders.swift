import GeoCore

/// Readers of the inputs the encoder accepts; all take bytes or text, never a path.
public enum SourceReaders {
    /// The intermediate lines file written by `Tools/build_assets.py`: magic `TMRAW001`, then records of
    /// u8 class (0 coastline, 1 lake, 2 border, 3 land, 4 state border, 5 lake water; plus 0x80 for
    /// another ring of the area before), u32 point count, and that many little-endian f64 (longitude,
    /// latitude) pairs.
    public static func rawLines(_ bytes: [UInt8], name: String) throws(MapDataError) -> [SourceFeature] {
        let result: [SourceFeature]? = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            guard let magic = r.bytes(8), Array(magic) == Array("TMRAW001".utf8) else { return nil }
            var lines: [SourceFeature] = []
            while r.remaining > 0 {
                // The high bit: another ring of the area before (a hole, or another island of one shape).
                guard let tag = r.u8(), let featureClass = FeatureClass(rawValue: tag & 0x7f), tag & 0x7f <= 5,
                    tag & 0x80 == 0 || (lines.last?.featureClass == featureClass && featureClass.isArea),
                    let n = r.u32(),
                    Int(n) <= r.remaining / 16
                else { return nil }
                var points: [Coordinate] = []
                points.reserveCapacity(Int(n))
                for _ in 0..<n {
                    guard let lon = r.f64(), let lat = r.f64() else { return nil }
                    points.append(Coordinate(latitude: lat, longitude: lon))
                }
                if tag & 0x80 != 0 {
                    lines[lines.count - 1].parts.append(points)
                } else {
                    lines.append(SourceFeature(featureClass, line: points))
                }
            }
            return lines
        }
        guard let lines = result else { throw MapDataError(file: name, .badInput("not a TMRAW001 lines file")) }
        return lines
    }

    /// Tab-separated places: name, latitude, longitude, country code, population, and optionally the
    /// kind (3 a country's capital), the region (a US state) and other names separated by `|` (one
    /// place per line).
    public static func citiesTSV(_ text: String, name: String) throws(MapDataError) -> [City] {
        var out: [City] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard (5...8).contains(f.count), let lat = Double(f[1]), let lon = Double(f[2]), let pop = Int(f[4]),
                abs(lat) <= 90, abs(lon) <= 180,
                let kind = f.count >= 6 ? UInt8(f[5]).flatMap(PlaceKind.init(rawValue:)) : .city
            else {
                throw MapDataError(
                    file: name,
                    .badInput(
                        "line \(n + 1) is not name, lat, lon, country, population[, kind[, region[, other names]]]"))
            }
            let region = f.count >= 7 ? String(f[6]) : ""
            let alternates = f.count >= 8 ? f[7].split(separator: "|").map(String.init) : []
            out.append(
                City(
                    name: String(f[0]), coordinate: Coordinate(latitude: lat, longitude: lon),
                    countryCode: String(f[3]),
                    population: pop, kind: kind, names: PlaceNames(region: region, alternates: alternates)))
        }
        return out
    }

    /// GSHHG as shipped by basemap: `gshhsmeta_X.dat` lines `level area npts south north byte_offset
    /// byte_count id` and `gshhs_X.dat` little-endian float32 (lon, lat) pairs of closed rings.
    /// Levels 1 and 3 (land, island in lake) become coastline, 2 and 4 (lake, pond) lake shore.
    public static func gshhg(meta: String, data: [UInt8], name: String) throws(MapDataError) -> [SourceFeature] {
        try records(meta: meta, data: data, name: name).map { level, points in
            SourceFeature((level == 2 || level == 4) ? .lake : .coastline, line: points)
        }
    }

    /// The WDBII rivers shipped beside GSHHG (`riversmeta_X.dat`, `rivers_X.dat`, the same layout): where
    /// a record has its WDBII level, the permanent rivers (1–4: double-lined, major, additional major,
    /// additional), not the minor, intermittent ones or canals (GSHHG's README, "WDBII rivers"); basemap's
    /// files give every record level -1 (unknown), and those are all kept.
    public static func gshhgRivers(meta: String, data: [UInt8], name: String) throws(MapDataError) -> [SourceFeature] {
        try records(meta: meta, data: data, name: name).compactMap { level, points in
            level <= 4 ? SourceFeature(.worldRiver, line: points) : nil
        }
    }

    /// The level and points of each meta line's record (basemap's `_readboundarydata` reads them so).
    static func records(meta: String, data: [UInt8], name: String) throws(MapDataError) -> [(Int, [Coordinate])] {
        var out: [(Int, [Coordinate])] = []
        for (n, line) in meta.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 7, let level = Int(f[0]), let npts = Int(f[2]), let offset = Int(f[5]),
                let count = Int(f[6]), npts >= 0, offset >= 0, count >= 0, count == npts * 8,
                offset <= data.count, count <= data.count - offset
            else {
                throw MapDataError(file: name, .badInput("meta line \(n + 1) is malformed or points outside the data"))
            }
            var points: [Coordinate] = []
            points.reserveCapacity(npts)
            data.withUnsafeBytes { raw in
                var r = ByteReader(raw, from: offset, to: offset + count)
                while let lonBits = r.u32(), let latBits = r.u32() {
                    let lon = Double(Float(bitPattern: lonBits))
                    let lat = Double(Float(bitPattern: latBits))
                    guard lon.isFinite, lat.isFinite, abs(lat) <= 90 else { continue }
                    points.append(Coordinate(latitude: lat, longitude: WebMercator.wrapLongitude(lon)))
                }
            }
            if points.count >= 2 { out.append((level, points)) }
        }
        return out
    }
}
