import FoundationEssentials
import GeoCore
import Glibc
import MapBuilders
import MapData
import MapFormats
import Support
import SystemSupport

/// `termmap data import-dem FILE`: a DEM GDAL reads (GeoTIFF, SRTM `.hgt`, an ASCII grid…) as terrain
/// (issue 48). GDAL's own programs (Debian `gdal-bin`, run, not linked) say where it is and how fine
/// (`gdalinfo -json`) and warp it to Web Mercator on the pixels of the zoom nearest its resolution
/// (`gdalwarp -r bilinear`, nodata kept as NaN); termmap cuts that into Terrarium tiles, each zoom out
/// to five zooms lower from the one below it, into `NAME.pmtiles` in the data folder (`encoding:
/// terrarium`), which `--terrain NAME` then reads.
enum DEMImport {
    /// How many zooms under the deepest are made (a DEM's overview for zoomed-out views).
    static let overviewZooms = 5

    /// Imports `path` as `name` (default: the file's stem). Returns the exit status.
    static func run(_ path: String, name: String?, dataDir: String?, environment: [String: String]) throws -> Int32 {
        let started = monotonicSeconds()
        let file = URL(fileURLWithPath: path).lastPathComponent
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        let chosen = name ?? String(stem.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        try DataCommands.checkImportName(chosen)
        guard FileManager.default.fileExists(atPath: path) else { throw DataFailure("\(path): no such file") }
        guard let gdalinfo = RasterImport.programOnPath(["gdalinfo"], environment: environment),
            let gdalwarp = RasterImport.programOnPath(["gdalwarp"], environment: environment)
        else {
            throw DataFailure("data import-dem needs GDAL's gdalinfo and gdalwarp (Debian: apt-get install gdal-bin)")
        }
        let folder = try DataCommands.dataFolder(dataDir, environment: environment)
        let work = folder + "/.\(chosen).import-dem"
        _ = try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { _ = try? FileManager.default.removeItem(atPath: work) }
        let grid = try place(path, gdalinfo: gdalinfo, work: work)
        // The deepest zoom's tiles the DEM meets, and their pixels in Web Mercator metres.
        let z = grid.zoom
        let n = 1 << z
        let nw = WebMercator.project(Coordinate(latitude: grid.north, longitude: grid.west))
        let se = WebMercator.project(Coordinate(latitude: grid.south, longitude: grid.east))
        let (x0, y0) = (max(0, Int(nw.x * Double(n))), max(0, Int(nw.y * Double(n))))
        let (x1, y1) = (min(n - 1, Int(se.x * Double(n))), min(n - 1, Int(se.y * Double(n))))
        let side = TerrariumTiler.side
        let (width, height) = ((x1 - x0 + 1) * side, (y1 - y0 + 1) * side)
        guard width * height <= 1 << 28 else {
            throw DataFailure("\(path): \(width) × \(height) pixels at zoom \(z) is more than termmap cuts at once")
        }
        let world = 2 * Double.pi * WebMercator.earthRadius
        let tileMeters = world / Double(n)
        let (west, north) = (-world / 2 + Double(x0) * tileMeters, world / 2 - Double(y0) * tileMeters)
        let (east, south) = (west + Double(x1 - x0 + 1) * tileMeters, north - Double(y1 - y0 + 1) * tileMeters)
        let raw = work + "/heights.bin"
        let argv = [
            gdalwarp, "-q", "-t_srs", "EPSG:3857", "-te", "\(west)", "\(south)", "\(east)", "\(north)", "-ts",
            "\(width)", "\(height)", "-r", "bilinear", "-ot", "Float32", "-dstnodata", "nan", "-of", "ENVI", path, raw,
        ]
        let (status, said) = try RasterImport.spawnWaiting(argv)
        guard status == 0 else { throw DataFailure("\(path): gdalwarp: " + lastLine(said, status: status)) }
        let bytes = try DataCommands.readBytes(raw)
        guard bytes.count == width * height * 4 else {
            throw DataFailure("\(path): gdalwarp wrote \(bytes.count) bytes, not \(width * height * 4)")
        }
        var heights = [Float](repeating: .nan, count: width * height)
        heights.withUnsafeMutableBytes { h in bytes.withUnsafeBytes { h.copyMemory(from: $0) } }
        var tiler = TerrariumTiler(heights: heights, width: width, height: height, zoom: z, originX: x0, originY: y0)
        var tiles: [(tile: TileID, png: [UInt8])] = []
        for level in 0...min(overviewZooms, z) {
            if level > 0 { tiler = tiler.zoomedOut() }
            tiles += tiler.tiles()
        }
        guard !tiles.isEmpty else { throw DataFailure("\(path): no heights (every pixel is nodata)") }
        let out = folder + "/" + chosen + ".pmtiles"
        let written = try write(tiles, to: out, name: chosen, source: file, grid: grid)
        printLine(
            "imported \(file): \(tiles.count) Terrarium tiles, zooms \(max(0, z - overviewZooms))-\(z), into \(out) "
                + "(\(written) bytes) in \(fixedDecimals(monotonicSeconds() - started, 1)) s; it is the terrain from now on"
        )
        return 0
    }

    /// Where a DEM is (degrees) and the zoom whose pixels are nearest its own in size.
    struct Placement {
        var west: Double, south: Double, east: Double, north: Double
        var zoom: Int
    }

    /// `path`'s place and resolution from `gdalinfo -json`; one line naming the file when GDAL cannot
    /// read it or it has no place.
    static func place(_ path: String, gdalinfo: String, work: String) throws -> Placement {
        let (status, said) = try RasterImport.spawnWaiting([gdalinfo, "-json", path], output: work + "/info.json")
        guard status == 0 else { throw DataFailure("\(path): GDAL cannot read it: " + lastLine(said, status: status)) }
        guard case .object(let info)? = JSONValue.parse(try DataCommands.readBytes(work + "/info.json")),
            case .object(let extent)? = info["wgs84Extent"], case .array(let rings)? = extent["coordinates"],
            case .array(let ring)? = rings.first
        else { throw DataFailure("\(path): has no coordinate system or place (gdalinfo gives no WGS 84 extent)") }
        let points: [(Double, Double)] = ring.compactMap {
            guard case .array(let p) = $0, p.count >= 2, case .number(let lon) = p[0], case .number(let lat) = p[1]
            else { return nil }
            return (lon, lat)
        }
        guard let west = points.map(\.0).min(), let east = points.map(\.0).max(), let south = points.map(\.1).min(),
            let north = points.map(\.1).max(), case .array(let size)? = info["size"], size.count == 2,
            case .number(let columns) = size[0], columns > 0
        else { throw DataFailure("\(path): gdalinfo gives no size or extent") }
        // The DEM's pixel on the ground at its middle latitude, against a zoom's pixel there.
        let middle = (north + south) / 2
        let metersAcross = (east - west) * .pi / 180 * WebMercator.earthRadius * cos(middle * .pi / 180)
        let pixel = metersAcross / columns
        let zoom0 = 2 * Double.pi * WebMercator.earthRadius * cos(middle * .pi / 180) / 256
        let zoom = min(15, max(0, Int(log2(zoom0 / max(pixel, 0.01)).rounded())))
        return Placement(
            west: max(-180, west), south: max(-85.05, south), east: min(180, east), north: min(85.05, north), zoom: zoom
        )
    }

    /// Writes the tiles as a PMTiles archive at `out` (metadata `encoding: terrarium`); returns its size.
    static func write(
        _ tiles: [(tile: TileID, png: [UInt8])], to out: String, name: String, source: String, grid: Placement
    ) throws -> Int {
        var bytes: [UInt64: [UInt8]] = [:]
        for t in tiles { bytes[t.tile.pmtilesID] = t.png }
        let entries = tiles.map {
            PMTilesBuilder.Tile(id: $0.tile.pmtilesID, length: $0.png.count, hash: PMTilesBuilder.hash($0.png))
        }
        let zs = tiles.map(\.tile.z)
        let metadata: [String: PMTilesBuilder.JSONText] = [
            "name": .string(name), "format": .string("png"), "type": .string("baselayer"),
            "encoding": .string("terrarium"),
            "description": .string(
                "\(source), warped by gdalwarp and cut into Terrarium tiles (termmap data import-dem)"),
            "attribution": .string(source), "minzoom": .raw(String(zs.min() ?? 0)),
            "maxzoom": .raw(String(zs.max() ?? 0)),
        ]
        let area = CoordinateBounds(north: grid.north, south: grid.south, west: grid.west, east: grid.east)
        let building = out + ".part"
        _ = try PMTilesBuilder.write(
            entries, to: building, description: PMTilesBuilder.Description(bounds: area, metadata: metadata)
        ) { bytes[$0.id] ?? [] }
        guard rename(building, out) == 0 else { throw DataFailure("\(out): cannot write (\(systemErrorReason()))") }
        var facts = stat()
        return stat(out, &facts) == 0 ? Int(facts.st_size) : 0
    }

    /// The last line a program said, made safe for one line of ours.
    static func lastLine(_ said: String, status: Int32) -> String {
        let last = said.split(whereSeparator: \.isNewline).last { !$0.trimmingPrefix(while: \.isWhitespace).isEmpty }
        return SafeText.forLine(last.map(String.init) ?? "exit status \(status)")
    }
}
