import Foundation
import GeoCore
import Testing

@testable import MapBuilders
@testable import MapData
@testable import MapFormats

@Suite("GSHHG import")
struct GSHHGTests {
    /// A two-ring GSHHG pair in the real layout: float32 little-endian lon/lat, and its meta lines.
    static func synthetic() -> (meta: String, data: [UInt8]) {
        var w = ByteWriter()
        func ring(_ pts: [(Float, Float)]) -> (Int, Int) {
            let start = w.bytes.count
            for (lon, lat) in pts {
                w.u32(lon.bitPattern)
                w.u32(lat.bitPattern)
            }
            return (start, w.bytes.count - start)
        }
        // An island ring, given in 0…360 longitudes as GSHHG does east of 180.
        let island: [(Float, Float)] = [(190, -17), (190.5, -17), (190.5, -17.5), (190, -17.5), (190, -17)]
        let lake: [(Float, Float)] = [(10, 46), (10.2, 46), (10.2, 46.1), (10, 46)]
        let a = ring(island)
        let b = ring(lake)
        let meta = """
            1 1234.5 \(island.count) -17.5 -17 \(a.0) \(a.1) 0
            2 12.0 \(lake.count) 46 46.1 \(b.0) \(b.1) 1
            """
        return (meta, w.bytes)
    }

    @Test func importReadsRingsInTheRealByteLayout() throws {
        let s = Self.synthetic()
        let lines = try SourceReaders.gshhg(meta: s.meta, data: s.data, name: "gshhs_f.dat")
        #expect(lines.count == 2)
        #expect(lines[0].featureClass == .coastline && lines[1].featureClass == .lake)
        #expect(lines[0].parts[0].first == Coordinate(latitude: -17, longitude: -170))
        let asset = try MapAsset(bytes: MapAssetWriter.encode(lines: lines, cities: []))
        let view = CoordinateBounds(north: -16, south: -18, west: -171, east: -169)
        let hits = try asset.query(bounds: view, level: asset.levels.count - 1)
        #expect(hits.count == 1)
        #expect(hits.first?.chunk.lon.count == 5)
    }

    @Test func malformedMetaIsAnError() {
        let s = Self.synthetic()
        #expect(throws: MapDataError.self) { try SourceReaders.gshhg(meta: "1 2 3", data: s.data, name: "m") }
        #expect(throws: MapDataError.self) {
            try SourceReaders.gshhg(meta: "1 1 5 0 0 99999 40 0", data: s.data, name: "m")
        }
        #expect(throws: MapDataError.self) {
            try SourceReaders.gshhg(meta: "1 1 5 0 0 0 41 0", data: s.data, name: "m")
        }
    }
}

extension GSHHGTests {
    /// WDBII rivers (basemap's `rivers_X.dat` beside the shorelines, the same record layout): the
    /// permanent ones (levels 1–4) are kept as world rivers, minor and intermittent ones and canals not;
    /// a record without its level (basemap writes -1 for all) is kept.
    @Test func riversKeepThePermanentOnes() throws {
        var w = ByteWriter()
        var meta: [String] = []
        for (level, lon) in [(1, 10.0), (2, 11.0), (4, 12.0), (5, 13.0), (6, 14.0), (9, 15.0), (-1, 16.0)] {
            let start = w.bytes.count
            let pts: [(Float, Float)] = [(Float(lon), 45), (Float(lon) + 0.5, 45.25), (Float(lon) + 1, 45)]
            for (x, y) in pts {
                w.u32(x.bitPattern)
                w.u32(y.bitPattern)
            }
            meta.append("\(level) -1 3 45 45.25 \(start) \(w.bytes.count - start)")
        }
        let rivers = try SourceReaders.gshhgRivers(
            meta: meta.joined(separator: "\n"), data: w.bytes, name: "rivers_f.dat")
        #expect(rivers.map(\.parts[0][0].longitude) == [10, 11, 12, 16])
        #expect(rivers.allSatisfy { $0.featureClass == .worldRiver && $0.parts[0].count == 3 })
        #expect(rivers[1].parts[0][1] == Coordinate(latitude: 45.25, longitude: 11.5))
    }
}
