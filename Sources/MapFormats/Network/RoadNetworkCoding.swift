import GeoCore

/// The network section of a map data file (version 6; `assets/FORMAT.md`): varint-coded, deltas where
/// neighbours are close, behind its inflated size and deflated as a whole.
public enum RoadNetworkCoding {
    /// The most junctions, edges, shape points, ways or restrictions a section may claim (a country).
    public static let maxCount = 1 << 26
    /// The most bytes a section may inflate to.
    public static let maxInflated = 1 << 30

    /// The section's bytes.
    public static func encode(_ n: RoadNetwork) -> [UInt8] {
        let raw = encodeRaw(n)
        var out = ByteWriter()
        out.varint(UInt64(raw.count))
        out.append(Zlib.deflate(raw) ?? [])
        return out.bytes
    }

    /// The section's bytes before deflating (for fuzzers, which damage them).
    public static func encodeRaw(_ n: RoadNetwork) -> [UInt8] {
        var w = ByteWriter()
        for count in [n.nodeCount, n.edgeCount, n.shapeLatitudes.count, n.wayCount, n.restrictions.count] {
            w.varint(UInt64(count))
        }
        var (lat, lon): (Int32, Int32) = (0, 0)
        for i in 0..<n.nodeCount {
            w.signedVarint(Int64(n.nodeLatitudes[i]) - Int64(lat))
            w.signedVarint(Int64(n.nodeLongitudes[i]) - Int64(lon))
            (lat, lon) = (n.nodeLatitudes[i], n.nodeLongitudes[i])
        }
        // The texts once, then the ways naming them by index.
        w.varint(UInt64(n.texts.count))
        for t in n.texts { w.text(t, limit: 255) }
        w.varint(UInt64(n.classes.count))
        for c in n.classes { w.text(c, limit: 255) }
        var osm: Int64 = 0
        for i in 0..<n.wayCount {
            w.signedVarint(n.wayOSM[i] &- osm)
            osm = n.wayOSM[i]
            w.varint(UInt64(n.wayName[i]))
            w.varint(UInt64(n.wayRef[i]))
            w.u8(n.wayClass[i])
            w.u8(n.wayFlags[i])
        }
        var (from, wayIndex): (Int64, Int64) = (0, 0)
        for e in 0..<n.edgeCount {
            w.signedVarint(Int64(n.edgeFrom[e]) - from)
            w.signedVarint(Int64(n.edgeTo[e]) - Int64(n.edgeFrom[e]))
            w.signedVarint(Int64(n.edgeWay[e]) - wayIndex)
            (from, wayIndex) = (Int64(n.edgeFrom[e]), Int64(n.edgeWay[e]))
            w.u8(n.edgeAccess[e])
            w.u8(n.edgeCarKmh[e])
            // Centimetres: the length as computed to the centimetre, whatever the float's rounding.
            let cm = (Double(n.edgeMeters[e]) * 100).rounded()
            w.varint(cm.isFinite && cm > 0 ? UInt64(min(cm, 1e12)) : 0)
            let shape = Int(n.shapeStart[e])..<Int(n.shapeStart[e + 1])
            w.varint(UInt64(shape.count))
            var (pLat, pLon) = (n.nodeLatitudes[Int(n.edgeFrom[e])], n.nodeLongitudes[Int(n.edgeFrom[e])])
            for i in shape {
                w.signedVarint(Int64(n.shapeLatitudes[i]) - Int64(pLat))
                w.signedVarint(Int64(n.shapeLongitudes[i]) - Int64(pLon))
                (pLat, pLon) = (n.shapeLatitudes[i], n.shapeLongitudes[i])
            }
        }
        for r in n.restrictions {
            w.varint(UInt64(r.fromWay))
            w.varint(UInt64(r.via))
            w.varint(UInt64(r.toWay))
            w.u8(r.only ? 1 : 0)
        }
        return w.bytes
    }

    /// The network the section's bytes hold; nil when they are damaged (any count, index or length out
    /// of its range).
    public static func decode(_ section: UnsafeRawBufferPointer) -> RoadNetwork? {
        var r = ByteReader(section)
        guard let size = r.varint(), size <= UInt64(maxInflated), size <= UInt64(section.count) * 1032,
            let stream = r.bytes(r.remaining), let raw = Zlib.inflate(stream, size: Int(size), limit: maxInflated)
        else { return nil }
        return raw.withUnsafeBytes { decode(raw: $0) }
    }

    /// The network of a section's inflated bytes; nil when they are damaged.
    public static func decode(raw: UnsafeRawBufferPointer) -> RoadNetwork? {
        var r = ByteReader(raw)
        var counts: [Int] = []
        for _ in 0..<5 {
            guard let c = r.varint(), c <= UInt64(maxCount), c <= UInt64(raw.count) else { return nil }
            counts.append(Int(c))
        }
        let (nodes, edges, shapes, wayCount, restrictionCount) = (counts[0], counts[1], counts[2], counts[3], counts[4])
        var n = RoadNetwork()
        guard readNodes(&r, nodes, into: &n), readWays(&r, wayCount, into: &n),
            readEdges(&r, edges, shapes: shapes, into: &n), n.shapeLatitudes.count == shapes
        else { return nil }
        for _ in 0..<restrictionCount {
            guard let from = r.varint(), let via = r.varint(), let to = r.varint(), let only = r.u8(),
                from < UInt64(wayCount), via < UInt64(nodes), to < UInt64(wayCount)
            else { return nil }
            n.restrictions.append(
                RoadNetwork.TurnRestriction(fromWay: UInt32(from), via: UInt32(via), toWay: UInt32(to), only: only == 1)
            )
        }
        return r.remaining == 0 ? n : nil
    }

    static func coordinateDelta(_ r: inout ByteReader, _ lat: inout Int32, _ lon: inout Int32) -> Bool {
        guard let dLat = r.signedVarint(), let dLon = r.signedVarint() else { return false }
        let (la, lo) = (Int64(lat) + dLat, Int64(lon) + dLon)
        guard abs(la) <= 900_000_000, abs(lo) <= 1_800_000_000 else { return false }
        (lat, lon) = (Int32(la), Int32(lo))
        return true
    }

    static func readNodes(_ r: inout ByteReader, _ count: Int, into n: inout RoadNetwork) -> Bool {
        var (lat, lon): (Int32, Int32) = (0, 0)
        n.nodeLatitudes.reserveCapacity(count)
        n.nodeLongitudes.reserveCapacity(count)
        for _ in 0..<count {
            guard coordinateDelta(&r, &lat, &lon) else { return false }
            n.nodeLatitudes.append(lat)
            n.nodeLongitudes.append(lon)
        }
        return true
    }

    static func readText(_ r: inout ByteReader) -> String? {
        guard let length = r.varint(), length <= 255, let bytes = r.bytes(Int(length)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func readWays(_ r: inout ByteReader, _ count: Int, into n: inout RoadNetwork) -> Bool {
        guard let textCount = r.varint(), textCount >= 1, textCount <= UInt64(r.remaining) else { return false }
        var texts: [String] = []
        for _ in 0..<textCount {
            guard let t = readText(&r) else { return false }
            texts.append(t)
        }
        guard texts[0].isEmpty, let classCount = r.varint(), classCount <= 256 else { return false }
        var classes: [String] = []
        for _ in 0..<classCount {
            guard let c = readText(&r) else { return false }
            classes.append(c)
        }
        var osm: Int64 = 0
        for _ in 0..<count {
            guard let d = r.signedVarint(), let name = r.varint(), let ref = r.varint(), let c = r.u8(),
                let flags = r.u8(), name < textCount, ref < textCount, Int(c) < classes.count
            else { return false }
            osm = osm &+ d
            n.wayOSM.append(osm)
            n.wayName.append(UInt32(name))
            n.wayRef.append(UInt32(ref))
            n.wayClass.append(c)
            n.wayFlags.append(flags)
        }
        n.adoptTexts(texts, classes: classes)
        return true
    }

    static func readEdges(_ r: inout ByteReader, _ count: Int, shapes: Int, into n: inout RoadNetwork) -> Bool {
        var (from, wayIndex): (Int64, Int64) = (0, 0)
        let nodes = Int64(n.nodeCount)
        let ways = Int64(n.wayCount)
        for _ in 0..<count {
            guard let dFrom = r.signedVarint(), let dTo = r.signedVarint(), let dWay = r.signedVarint(),
                let access = r.u8(), let car = r.u8(), let cm = r.varint(), cm < 1 << 40,
                let shapeCount = r.varint(), shapeCount <= UInt64(shapes - n.shapeLatitudes.count)
            else { return false }
            from += dFrom
            let to = from + dTo
            wayIndex += dWay
            guard (0..<nodes).contains(from), (0..<nodes).contains(to), (0..<ways).contains(wayIndex) else {
                return false
            }
            var (lat, lon) = (n.nodeLatitudes[Int(from)], n.nodeLongitudes[Int(from)])
            for _ in 0..<shapeCount {
                guard coordinateDelta(&r, &lat, &lon) else { return false }
                n.shapeLatitudes.append(lat)
                n.shapeLongitudes.append(lon)
            }
            n.edgeFrom.append(UInt32(from))
            n.edgeTo.append(UInt32(to))
            n.edgeWay.append(UInt32(wayIndex))
            n.edgeAccess.append(access)
            n.edgeCarKmh.append(car)
            n.edgeMeters.append(Float(Double(cm) / 100))
            n.shapeStart.append(UInt32(n.shapeLatitudes.count))
        }
        return true
    }
}
