import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import Support
import SystemSupport

/// `termmap data get`: the tiles of an area and zooms from any tileset, written as one `.pmtiles`.
/// Tiles go first to a journal (`NAME.pmtiles.part`: a line saying what is downloaded, then one record
/// a tile), so that an interrupted download resumes where it stopped; the archive is written next to
/// it and renamed to its name only when complete.
public struct AreaDownload {
    /// The area and zooms.
    public var bounds: CoordinateBounds
    public var zooms: ClosedRange<Int>

    /// Above this many tiles a download needs `--yes`.
    public static let confirmAbove = 50_000

    public init(bounds: CoordinateBounds, zooms: ClosedRange<Int>) {
        self.bounds = bounds
        self.zooms = zooms
    }

    /// The area's tiles at each zoom within the tileset's zooms and bounds: a column and row range a
    /// zoom (mercantile's `tiles`: the tiles whose squares meet the box).
    public func ranges(of info: TilesetInfo) -> [(z: Int, x: ClosedRange<Int>, y: ClosedRange<Int>)] {
        let from = max(zooms.lowerBound, info.minZoom)
        let to = min(zooms.upperBound, info.maxZoom)
        guard from <= to else { return [] }
        let area = CoordinateBounds(
            north: min(bounds.north, info.bounds.north, WebMercator.maxLatitude),
            south: max(bounds.south, info.bounds.south, -WebMercator.maxLatitude),
            west: max(bounds.west, info.bounds.west, -180), east: min(bounds.east, info.bounds.east, 180))
        guard area.north > area.south, area.east > area.west else { return [] }
        let nw = WebMercator.project(Coordinate(latitude: area.north, longitude: area.west))
        let se = WebMercator.project(Coordinate(latitude: area.south, longitude: area.east))
        return (from...to).map { z in
            let n = 1 << z
            func cell(_ v: Double) -> Int { max(0, min(n - 1, Int((v * Double(n)).rounded(.down)))) }
            return (z, cell(nw.x)...cell(se.x), cell(nw.y)...cell(se.y))
        }
    }

    /// How many tiles `ranges` holds.
    public func count(of info: TilesetInfo) -> Int { ranges(of: info).reduce(0) { $0 + $1.x.count * $1.y.count } }

    /// The area's tiles in PMTiles id order (the order a clustered archive stores them, and a Hilbert
    /// walk: neighbours are asked for together).
    public func tiles(of info: TilesetInfo) -> [TileID] {
        var out: [TileID] = []
        for r in ranges(of: info) {
            for x in r.x {
                for y in r.y { out.append(TileID(z: r.z, x: x, y: y)) }
            }
        }
        return out.sorted { $0.pmtilesID < $1.pmtilesID }
    }

    /// Bytes the tiles take in a PMTiles source (from its directories), nil for other sources.
    public static func bytes(of tiles: [TileID], in archive: any TileArchive) -> (count: Int, bytes: Int)? {
        guard let p = archive as? PMTilesArchive else { return nil }
        var count = 0
        var bytes = 0
        for t in tiles {
            if let place = try? p.locate(t) {
                count += 1
                bytes += place.length
            }
        }
        return (count, bytes)
    }
}

/// The journal of a download: its first line names the source, area and zooms (another download's
/// journal is started anew); then per tile its PMTiles id (8 bytes), length (4 bytes, all ones: the
/// source has no such tile) and bytes, little-endian. A record cut short by an interruption is dropped
/// when the journal is opened again.
public final class DownloadJournal {
    public let path: String
    private let file: UnsafeMutablePointer<FILE>
    /// The tiles recorded: where each one's bytes are (nil: the source has none).
    public private(set) var recorded: [UInt64: (offset: Int, length: Int)?] = [:]
    /// Bytes of tiles recorded.
    public private(set) var tileBytes = 0
    static let absent = UInt32.max

    /// Opens (resuming) or starts the journal at `path` for `what`.
    public init(path: String, what: String) throws(MapDataError) {
        self.path = path
        let firstLine = Array(("termmap data get 1 " + what + "\n").utf8)
        var keep = 0
        if let existing = try? Data(contentsOf: URL(fileURLWithPath: path)), existing.starts(with: firstLine) {
            let bytes = [UInt8](existing)
            var at = firstLine.count
            keep = at
            func u64(_ i: Int) -> UInt64 {
                (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[i + $1]) << (8 * UInt64($1)) }
            }
            func u32(_ i: Int) -> UInt32 {
                (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[i + $1]) << (8 * UInt32($1)) }
            }
            while at + 12 <= bytes.count {
                let id = u64(at)
                let length = u32(at + 8)
                if length == Self.absent {
                    recorded[id] = .some(nil)
                    at += 12
                } else {
                    guard at + 12 + Int(length) <= bytes.count else { break }
                    recorded[id] = (at + 12, Int(length))
                    tileBytes += Int(length)
                    at += 12 + Int(length)
                }
                keep = at
            }
        }
        guard let f = fopen(path, keep > 0 ? "r+b" : "w+b") else {
            throw MapDataError(file: path, .unreadable("cannot write: \(systemErrorReason())"))
        }
        file = f
        if keep > 0 {
            // Drop a record cut short, then append after the last whole one.
            _ = ftruncate(fileno(f), off_t(keep))
            fseek(f, 0, SEEK_END)
        } else {
            recorded = [:]
            tileBytes = 0
            try write(firstLine)
        }
    }

    deinit { fclose(file) }

    private func write(_ bytes: [UInt8]) throws(MapDataError) {
        let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard n == bytes.count else {
            throw MapDataError(file: path, .unreadable("cannot write: \(systemErrorReason())"))
        }
    }

    /// Records a tile's bytes as the source stored them (nil: it has no such tile).
    public func record(_ tile: TileID, _ bytes: [UInt8]?) throws(MapDataError) {
        let id = tile.pmtilesID
        var head: [UInt8] = []
        for i in 0..<8 { head.append(UInt8(truncatingIfNeeded: id >> (8 * UInt64(i)))) }
        let length = bytes.map { UInt32($0.count) } ?? Self.absent
        for i in 0..<4 { head.append(UInt8(truncatingIfNeeded: length >> (8 * UInt32(i)))) }
        fseek(file, 0, SEEK_END)
        let offset = Int(ftell(file)) + 12
        try write(head + (bytes ?? []))
        recorded[id] = bytes.map { (offset, $0.count) } ?? .some(nil)
        tileBytes += bytes?.count ?? 0
    }

    /// Makes the records so far survive a crash of this process (not of the machine).
    public func flush() { fflush(file) }

    /// A recorded tile's bytes.
    public func bytes(at offset: Int, length: Int) throws(MapDataError) -> [UInt8] {
        fflush(file)
        var out = [UInt8](repeating: 0, count: length)
        let n = out.withUnsafeMutableBytes { pread(fileno(file), $0.baseAddress, length, off_t(offset)) }
        guard n == length else { throw MapDataError(file: path, .truncated("download journal")) }
        return out
    }
}
