import FoundationEssentials
import Glibc

/// A node: an id, a position in nanodegrees and its tags.
public struct OSMNode: Sendable {
    /// The node's id.
    public var id: Int64
    /// Latitude in 1e-9 degrees.
    public var latitude: Int64
    /// Longitude in 1e-9 degrees.
    public var longitude: Int64
    /// Its tags (usually none).
    public var tags: [String: String]
}

/// A way: its nodes, their positions when the file has them (`LocationsOnWays`), and its tags.
public struct OSMWay: Sendable {
    /// The way's id.
    public var id: Int64
    /// The ids of its nodes, in order.
    public var refs: [Int64]
    /// Latitudes of its nodes in 1e-9 degrees, when the file carries them (else empty).
    public var latitudes: [Int64]
    /// Longitudes likewise.
    public var longitudes: [Int64]
    /// Its tags.
    public var tags: [String: String]
}

/// What a relation member is.
public enum OSMMemberType: Int, Sendable {
    case node = 0
    case way = 1
    case relation = 2
}

/// A member of a relation.
public struct OSMMember: Equatable, Sendable {
    /// Node, way or relation.
    public var type: OSMMemberType
    /// Its id.
    public var ref: Int64
    /// Its role (`outer`, `inner`…).
    public var role: String
}

/// A relation: its members and tags.
public struct OSMRelation: Sendable {
    /// The relation's id.
    public var id: Int64
    /// Its members, in order.
    public var members: [OSMMember]
    /// Its tags.
    public var tags: [String: String]
}

/// The file's header block.
public struct OSMHeader: Sendable {
    /// The bounding box (left, right, top, bottom) in 1e-9 degrees, if given.
    public var bbox: (left: Int64, right: Int64, top: Int64, bottom: Int64)?
    /// Features a reader must support.
    public var requiredFeatures: [String] = []
    /// Features the file has (e.g. `LocationsOnWays`, `Sort.Type_then_ID`).
    public var optionalFeatures: [String] = []
    /// The program that wrote it.
    public var writingProgram: String?
    /// Where its data came from.
    public var source: String?
    /// The replication timestamp (seconds since 1970), if given.
    public var replicationTimestamp: Int64?
}

/// Receives what a PBF file holds, in file order (nodes, then ways, then relations in sorted files).
public protocol OSMHandler {
    /// The header block (first in the file).
    mutating func header(_ header: OSMHeader)
    /// One node.
    mutating func node(_ node: OSMNode)
    /// One way.
    mutating func way(_ way: OSMWay)
    /// One relation.
    mutating func relation(_ relation: OSMRelation)
}

/// Reads OpenStreetMap PBF files (wiki.openstreetmap.org/wiki/PBF_Format): a sequence of
/// [4-byte big-endian length][BlobHeader][Blob], the first an `OSMHeader`, the others `OSMData`
/// primitive blocks with a string table, dense or plain nodes, ways and relations. Raw and zlib blobs
/// are read; other compressions are a clear error. Any malformed byte is a `MapDataError`, never a trap.
public enum PBFReader {
    /// Features of the format this reader supports when a file requires them.
    public static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    /// Reads `bytes` (the file `name`) into `handler`.
    public static func read<H: OSMHandler>(_ bytes: [UInt8], name: String, into handler: inout H) throws(MapDataError) {
        try read(Data(bytes), name: name, into: &handler)
    }

    /// Reads `data` (the file `name`; memory-mapped for big extracts) into `handler`.
    public static func read<H: OSMHandler>(_ data: Data, name: String, into handler: inout H) throws(MapDataError) {
        var error: MapDataError?
        data.withUnsafeBytes { raw in
            do throws(MapDataError) {
                try readBlobs(raw, name: name, into: &handler)
            } catch let e {
                error = e
            }
        }
        if let error { throw error }
    }

    private static func readBlobs<H: OSMHandler>(_ raw: UnsafeRawBufferPointer, name: String, into handler: inout H)
        throws(MapDataError)
    {
        func fail(_ why: String) -> MapDataError { MapDataError(file: name, .badInput(why)) }
        var offset = 0
        var blobNumber = 0
        var sawHeader = false
        guard raw.count >= 4 else { throw fail("not an OSM PBF file (too short)") }
        while offset < raw.count {
            blobNumber += 1
            guard raw.count - offset >= 4 else { throw fail("truncated before blob \(blobNumber)") }
            let headerLength = (0..<4).reduce(0) { $0 << 8 | Int(raw[offset + $1]) }
            offset += 4
            guard headerLength > 0, headerLength <= 64 * 1024 else {
                throw fail(
                    blobNumber == 1
                        ? "not an OSM PBF file (no blob header at the start)"
                        : "blob \(blobNumber): header length \(headerLength) out of range")
            }
            guard raw.count - offset >= headerLength else { throw fail("truncated in blob \(blobNumber)'s header") }
            let headerBytes = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + headerLength)])
            offset += headerLength
            guard let (type, dataSize) = blobHeader(headerBytes) else {
                throw fail(
                    blobNumber == 1
                        ? "not an OSM PBF file (malformed first blob header)"
                        : "blob \(blobNumber): malformed blob header")
            }
            guard dataSize <= 32 * 1024 * 1024 else { throw fail("blob \(blobNumber): size \(dataSize) out of range") }
            guard raw.count - offset >= dataSize else { throw fail("truncated in blob \(blobNumber)") }
            let blobBytes = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + dataSize)])
            offset += dataSize
            guard type == "OSMHeader" || type == "OSMData" else { continue }  // unknown blob types are skipped
            let content = try blobContent(blobBytes, number: blobNumber, fail: fail)
            var failure: MapDataError?
            content.withUnsafeBytes { block in
                if type == "OSMHeader" {
                    guard let header = headerBlock(block) else {
                        failure = fail("blob \(blobNumber): malformed header block")
                        return
                    }
                    let missing = header.requiredFeatures.filter { !supportedFeatures.contains($0) }
                    guard missing.isEmpty else {
                        failure = fail(
                            "needs the PBF feature \(missing.joined(separator: ", ")), which termmap does not read")
                        return
                    }
                    sawHeader = true
                    handler.header(header)
                } else {
                    guard sawHeader else {
                        failure = fail("blob \(blobNumber): data before the OSMHeader block")
                        return
                    }
                    guard primitiveBlock(block, into: &handler) else {
                        failure = fail("blob \(blobNumber): malformed primitive block")
                        return
                    }
                }
            }
            if let failure { throw failure }
        }
        guard sawHeader else { throw fail("not an OSM PBF file (no OSMHeader block)") }
    }

    /// BlobHeader: type (1, string), indexdata (2), datasize (3).
    static func blobHeader(_ bytes: UnsafeRawBufferPointer) -> (type: String, dataSize: Int)? {
        var r = ProtobufReader(bytes)
        var type: String?
        var size: Int?
        while let (number, wire) = r.field() {
            switch (number, wire) {
            case (1, 2):
                guard let s = r.lengthDelimited() else { return nil }
                type = String(decoding: s, as: UTF8.self)
            case (3, 0):
                guard let v = r.varint(), v <= UInt64(Int32.max) else { return nil }
                size = Int(v)
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        guard r.atEnd, let type, let size else { return nil }
        return (type, size)
    }

    /// Blob: raw (1), raw_size (2), zlib_data (3), lzma_data (4), bzip2 (5), lz4_data (6), zstd_data (7).
    static func blobContent(_ bytes: UnsafeRawBufferPointer, number: Int, fail: (String) -> MapDataError)
        throws(MapDataError) -> [UInt8]
    {
        var r = ProtobufReader(bytes)
        var rawData: UnsafeRawBufferPointer?
        var zlibData: UnsafeRawBufferPointer?
        var rawSize: Int?
        var other: String?
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 2): rawData = r.lengthDelimited()
            case (2, 0):
                guard let v = r.varint(), v <= 32 * 1024 * 1024 else {
                    throw fail("blob \(number): raw size out of range")
                }
                rawSize = Int(v)
            case (3, 2): zlibData = r.lengthDelimited()
            case (4, 2), (5, 2), (6, 2), (7, 2):
                other = [4: "LZMA", 5: "bzip2", 6: "LZ4", 7: "zstd"][field]
                guard r.skip(wire) else { throw fail("blob \(number): malformed blob") }
            default:
                guard r.skip(wire) else { throw fail("blob \(number): malformed blob") }
            }
        }
        guard r.atEnd else { throw fail("blob \(number): malformed blob") }
        if let rawData { return [UInt8](rawData) }
        if let zlibData {
            guard let rawSize, let inflated = Zlib.inflate(zlibData, size: rawSize) else {
                throw fail("blob \(number): zlib data does not inflate to its raw size")
            }
            return inflated
        }
        if let other {
            throw fail(
                "blob \(number) is \(other)-compressed; termmap reads raw and zlib blobs (osmium cat -o out.osm.pbf converts)"
            )
        }
        throw fail("blob \(number) holds no data")
    }

    /// HeaderBlock: bbox (1), required_features (4), optional_features (5), writingprogram (16),
    /// source (17), osmosis_replication_timestamp (32).
    static func headerBlock(_ bytes: UnsafeRawBufferPointer) -> OSMHeader? {
        var r = ProtobufReader(bytes)
        var h = OSMHeader()
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 2):
                guard let box = r.lengthDelimited(), let b = headerBBox(box) else { return nil }
                h.bbox = b
            case (4, 2), (5, 2), (16, 2), (17, 2):
                guard let s = r.lengthDelimited() else { return nil }
                let text = String(decoding: s, as: UTF8.self)
                switch field {
                case 4: h.requiredFeatures.append(text)
                case 5: h.optionalFeatures.append(text)
                case 16: h.writingProgram = text
                default: h.source = text
                }
            case (32, 0):
                guard let v = r.varint() else { return nil }
                h.replicationTimestamp = Int64(bitPattern: v)
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        return r.atEnd ? h : nil
    }

    /// HeaderBBox: left (1), right (2), top (3), bottom (4), sint64 nanodegrees.
    static func headerBBox(_ bytes: UnsafeRawBufferPointer) -> (left: Int64, right: Int64, top: Int64, bottom: Int64)? {
        var r = ProtobufReader(bytes)
        var v: [Int: Int64] = [:]
        while let (field, wire) = r.field() {
            if wire == 0, (1...4).contains(field), let x = r.varint() {
                v[field] = ProtobufReader.zigzag(x)
            } else if !r.skip(wire) {
                return nil
            }
        }
        guard r.atEnd, let l = v[1], let rt = v[2], let t = v[3], let b = v[4] else { return nil }
        return (l, rt, t, b)
    }

    /// What positions in a block mean: 1e-9 degrees = offset + granularity × stored value.
    struct Scale {
        var granularity: Int64 = 100
        var latOffset: Int64 = 0
        var lonOffset: Int64 = 0
        func lat(_ v: Int64) -> Int64 { latOffset &+ granularity &* v }
        func lon(_ v: Int64) -> Int64 { lonOffset &+ granularity &* v }
    }

    /// PrimitiveBlock: stringtable (1), primitivegroup (2), granularity (17), lat_offset (19), lon_offset (20).
    static func primitiveBlock<H: OSMHandler>(_ bytes: UnsafeRawBufferPointer, into handler: inout H) -> Bool {
        var r = ProtobufReader(bytes)
        var strings: [String] = []
        var groups: [UnsafeRawBufferPointer] = []
        var scale = Scale()
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 2):
                guard let table = r.lengthDelimited(), let s = stringTable(table) else { return false }
                strings = s
            case (2, 2):
                guard let g = r.lengthDelimited() else { return false }
                groups.append(g)
            case (17, 0), (19, 0), (20, 0):
                guard let v = r.varint() else { return false }
                let value = Int64(bitPattern: v)
                if field == 17 {
                    guard value >= 1, value <= 1_000_000_000 else { return false }
                    scale.granularity = value
                } else if field == 19 {
                    scale.latOffset = value
                } else {
                    scale.lonOffset = value
                }
            default:
                guard r.skip(wire) else { return false }
            }
        }
        guard r.atEnd else { return false }
        for g in groups { guard group(g, strings: strings, scale: scale, into: &handler) else { return false } }
        return true
    }

    /// StringTable: repeated bytes s (1).
    static func stringTable(_ bytes: UnsafeRawBufferPointer) -> [String]? {
        var r = ProtobufReader(bytes)
        var out: [String] = []
        while let (field, wire) = r.field() {
            if field == 1, wire == 2, let s = r.lengthDelimited() {
                out.append(String(decoding: s, as: UTF8.self))
            } else if !r.skip(wire) {
                return nil
            }
        }
        return r.atEnd ? out : nil
    }

    /// PrimitiveGroup: nodes (1), dense (2), ways (3), relations (4), changesets (5).
    static func group<H: OSMHandler>(
        _ bytes: UnsafeRawBufferPointer, strings: [String], scale: Scale, into handler: inout H
    ) -> Bool {
        var r = ProtobufReader(bytes)
        while let (field, wire) = r.field() {
            guard wire == 2 || !(1...4).contains(field) else { return false }
            switch field {
            case 1:
                guard let m = r.lengthDelimited(), let n = node(m, strings: strings, scale: scale) else { return false }
                handler.node(n)
            case 2:
                guard let m = r.lengthDelimited(), denseNodes(m, strings: strings, scale: scale, into: &handler)
                else { return false }
            case 3:
                guard let m = r.lengthDelimited(), let w = way(m, strings: strings, scale: scale) else { return false }
                handler.way(w)
            case 4:
                guard let m = r.lengthDelimited(), let rel = relation(m, strings: strings) else { return false }
                handler.relation(rel)
            default:
                guard r.skip(wire) else { return false }
            }
        }
        return r.atEnd
    }

    /// Keys and values (parallel packed string indices) as tags.
    static func tags(_ keys: [UInt64], _ values: [UInt64], strings: [String]) -> [String: String]? {
        guard keys.count == values.count else { return nil }
        var out: [String: String] = [:]
        for (k, v) in zip(keys, values) {
            guard k < UInt64(strings.count), v < UInt64(strings.count) else { return nil }
            out[strings[Int(k)]] = strings[Int(v)]
        }
        return out
    }

    /// Node: id (1, sint64), keys (2), vals (3), info (4), lat (8, sint64), lon (9, sint64).
    static func node(_ bytes: UnsafeRawBufferPointer, strings: [String], scale: Scale) -> OSMNode? {
        var r = ProtobufReader(bytes)
        var id: Int64?
        var lat: Int64?
        var lon: Int64?
        var keys: [UInt64] = []
        var values: [UInt64] = []
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 0), (8, 0), (9, 0):
                guard let v = r.varint() else { return nil }
                let z = ProtobufReader.zigzag(v)
                if field == 1 { id = z } else if field == 8 { lat = z } else { lon = z }
            case (2, 2), (3, 2):
                guard let p = r.lengthDelimited(), let list = ProtobufReader.packed(p, { $0 }) else { return nil }
                if field == 2 { keys = list } else { values = list }
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        guard r.atEnd, let id, let lat, let lon, let t = tags(keys, values, strings: strings) else { return nil }
        return OSMNode(id: id, latitude: scale.lat(lat), longitude: scale.lon(lon), tags: t)
    }

    /// DenseNodes: id (1), denseinfo (5), lat (8), lon (9), all delta-coded packed sint64;
    /// keys_vals (10): for each node its key/value string indices, then 0.
    static func denseNodes<H: OSMHandler>(
        _ bytes: UnsafeRawBufferPointer, strings: [String], scale: Scale, into handler: inout H
    ) -> Bool {
        var r = ProtobufReader(bytes)
        var ids: [Int64] = []
        var lats: [Int64] = []
        var lons: [Int64] = []
        var keysVals: [UInt64] = []
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 2), (8, 2), (9, 2):
                guard let p = r.lengthDelimited(), let list = ProtobufReader.packedDeltas(p) else { return false }
                if field == 1 { ids = list } else if field == 8 { lats = list } else { lons = list }
            case (10, 2):
                guard let p = r.lengthDelimited(), let list = ProtobufReader.packed(p, { $0 }) else { return false }
                keysVals = list
            default:
                guard r.skip(wire) else { return false }
            }
        }
        guard r.atEnd, ids.count == lats.count, ids.count == lons.count else { return false }
        var kv = 0
        for i in ids.indices {
            var t: [String: String] = [:]
            if !keysVals.isEmpty {
                while true {
                    guard kv < keysVals.count else { return false }
                    let k = keysVals[kv]
                    kv += 1
                    if k == 0 { break }
                    guard kv < keysVals.count, k < UInt64(strings.count), keysVals[kv] < UInt64(strings.count)
                    else { return false }
                    t[strings[Int(k)]] = strings[Int(keysVals[kv])]
                    kv += 1
                }
            }
            handler.node(OSMNode(id: ids[i], latitude: scale.lat(lats[i]), longitude: scale.lon(lons[i]), tags: t))
        }
        return true
    }

    /// Way: id (1), keys (2), vals (3), info (4), refs (8, delta sint64), lat (9) and lon (10) with
    /// LocationsOnWays (delta sint64).
    static func way(_ bytes: UnsafeRawBufferPointer, strings: [String], scale: Scale) -> OSMWay? {
        var r = ProtobufReader(bytes)
        var id: Int64?
        var keys: [UInt64] = []
        var values: [UInt64] = []
        var refs: [Int64] = []
        var lats: [Int64] = []
        var lons: [Int64] = []
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 0):
                guard let v = r.varint() else { return nil }
                id = Int64(bitPattern: v)
            case (2, 2), (3, 2):
                guard let p = r.lengthDelimited(), let list = ProtobufReader.packed(p, { $0 }) else { return nil }
                if field == 2 { keys = list } else { values = list }
            case (8, 2), (9, 2), (10, 2):
                guard let p = r.lengthDelimited(), let list = ProtobufReader.packedDeltas(p) else { return nil }
                if field == 8 { refs = list } else if field == 9 { lats = list } else { lons = list }
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        guard r.atEnd, let id, let t = tags(keys, values, strings: strings), lats.count == lons.count,
            lats.isEmpty || lats.count == refs.count
        else { return nil }
        return OSMWay(
            id: id, refs: refs, latitudes: lats.map(scale.lat), longitudes: lons.map(scale.lon), tags: t)
    }

    /// Relation: id (1), keys (2), vals (3), info (4), roles_sid (8), memids (9, delta sint64), types (10).
    static func relation(_ bytes: UnsafeRawBufferPointer, strings: [String]) -> OSMRelation? {
        var r = ProtobufReader(bytes)
        var id: Int64?
        var keys: [UInt64] = []
        var values: [UInt64] = []
        var roles: [UInt64] = []
        var memids: [Int64] = []
        var types: [UInt64] = []
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 0):
                guard let v = r.varint() else { return nil }
                id = Int64(bitPattern: v)
            case (2, 2), (3, 2), (8, 2), (10, 2):
                guard let p = r.lengthDelimited(), let list = ProtobufReader.packed(p, { $0 }) else { return nil }
                switch field {
                case 2: keys = list
                case 3: values = list
                case 8: roles = list
                default: types = list
                }
            case (9, 2):
                guard let p = r.lengthDelimited(), let list = ProtobufReader.packedDeltas(p) else { return nil }
                memids = list
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        guard r.atEnd, let id, let t = tags(keys, values, strings: strings), roles.count == memids.count,
            types.count == memids.count
        else { return nil }
        var members: [OSMMember] = []
        members.reserveCapacity(memids.count)
        for i in memids.indices {
            guard let type = OSMMemberType(rawValue: Int(truncatingIfNeeded: types[i])),
                roles[i] < UInt64(strings.count)
            else { return nil }
            members.append(OSMMember(type: type, ref: memids[i], role: strings[Int(roles[i])]))
        }
        return OSMRelation(id: id, members: members, tags: t)
    }
}
