import GeoCore

/// Decodes a chunk's payload (`assets/FORMAT.md`): points as zigzag varint deltas, each part's first
/// point from the chunk box's corner; version 2 adds per feature its name and its number of parts,
/// version 5 its OpenStreetMap object, its detail and its tags.
/// Any count, delta or point outside the chunk's box makes the chunk corrupt (nil).
public enum ChunkDecoder {
    public static func decode(
        _ payload: UnsafeRawBufferPointer, info: ChunkInfo, unitsPerDegree: Double, version: Int, nameCount: Int
    ) -> DecodedChunk? {
        let v1 = version == 1
        let v5 = info.hasExtras
        var r = ByteReader(payload)
        var osm: [UInt64] = []
        var details: [UInt32] = []
        var tags: [String] = []
        // Version 5's extras: the chunk's tag texts, then per feature its object's difference from the one
        // before, its detail and its tag text's index + 1.
        var previousObject: UInt64 = 0
        var texts: [String] = []
        if v5 {
            guard let read = readTagTexts(&r) else { return nil }
            texts = read
        }
        var lon: [Int32] = []
        var lat: [Int32] = []
        var starts: [Int] = [0]
        var featureStarts: [Int] = [0]
        var names: [Int32] = []
        // Each point takes at least 2 bytes: this bounds the arrays by the payload size.
        lon.reserveCapacity(payload.count / 2)
        lat.reserveCapacity(payload.count / 2)
        let minPoints: UInt64 = info.kind == .areas ? 3 : info.kind == .points ? 1 : 2
        for _ in 0..<info.featureCount {
            var parts: UInt64 = 1
            var nameIndex: Int32 = -1
            if !v1 {
                guard let n = r.varint(), n <= UInt64(nameCount), let p = r.varint(), p >= 1,
                    p <= UInt64(r.remaining / 2)
                else { return nil }
                nameIndex = Int32(n) - 1
                parts = p
            }
            if v5 {
                guard let o = r.signedVarint(), let d = r.varint(), d <= UInt64(UInt32.max), let t = r.varint(),
                    t <= UInt64(texts.count)
                else { return nil }
                previousObject = previousObject &+ UInt64(bitPattern: o)
                osm.append(previousObject)
                details.append(UInt32(d))
                tags.append(t == 0 ? "" : texts[Int(t) - 1])
            }
            for _ in 0..<parts {
                guard let n = r.varint(), n >= minPoints, n <= UInt64(r.remaining / 2) else { return nil }
                var x = Int64(info.minX)
                var y = Int64(info.minY)
                for _ in 0..<Int(n) {
                    guard let dx = r.signedVarint(), let dy = r.signedVarint() else { return nil }
                    x = x &+ dx
                    y = y &+ dy
                    guard x >= Int64(info.minX), x <= Int64(info.maxX), y >= Int64(info.minY), y <= Int64(info.maxY)
                    else { return nil }
                    lon.append(Int32(x))
                    lat.append(Int32(y))
                }
                starts.append(lon.count)
            }
            featureStarts.append(starts.count - 1)
            names.append(nameIndex)
        }
        guard r.remaining == 0 else { return nil }
        // × the quantum rather than ÷ the units: 1.0 / 100 000 is the double 1e-5, as version 1 computed it.
        let quantum = 1 / unitsPerDegree
        let (xs, ys) = project(lon: lon, lat: lat, quantum: quantum)
        let boxes = featureBoxes(x: xs, y: ys, starts: starts, featureStarts: featureStarts, count: names.count)
        return DecodedChunk(
            info: info, unitsPerDegree: unitsPerDegree, lon: lon, lat: lat, x: xs, y: ys, starts: starts,
            featureStarts: featureStarts, nameIndex: names, featureBoxes: boxes, osm: osm, details: details, tags: tags)
    }

    /// Version 5's tag texts at the chunk's start: a count, then each text's length and bytes.
    public static func readTagTexts(_ r: inout ByteReader) -> [String]? {
        guard let count = r.varint(), count <= UInt64(r.remaining) else { return nil }
        var texts: [String] = []
        for _ in 0..<Int(count) {
            guard let n = r.varint(), n <= UInt64(MapAssetFormat.maxTagBytes), let text = r.bytes(Int(n)) else {
                return nil
            }
            texts.append(String(decoding: text, as: UTF8.self))
        }
        return texts
    }

    /// The stored points in Web Mercator's unit square.
    public static func project(lon: [Int32], lat: [Int32], quantum: Double) -> ([Double], [Double]) {
        let xs = [Double](unsafeUninitializedCapacity: lon.count) { x, n in
            for i in lon.indices { x[i] = WebMercator.projectX(longitude: Double(lon[i]) * quantum) }
            n = lon.count
        }
        let ys = [Double](unsafeUninitializedCapacity: lat.count) { y, n in
            for i in lat.indices { y[i] = WebMercator.projectY(latitude: Double(lat[i]) * quantum) }
            n = lat.count
        }
        return (xs, ys)
    }

    /// Each feature's box in the unit square: min x, min y, max x, max y.
    public static func featureBoxes(x xs: [Double], y ys: [Double], starts: [Int], featureStarts: [Int], count: Int)
        -> [Double]
    {
        var boxes: [Double] = []
        boxes.reserveCapacity(4 * count)
        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                for f in 0..<count {
                    let first = starts[featureStarts[f]]
                    var box = (x[first], y[first], x[first], y[first])
                    for i in first..<starts[featureStarts[f + 1]] {
                        box = (min(box.0, x[i]), min(box.1, y[i]), max(box.2, x[i]), max(box.3, y[i]))
                    }
                    boxes.append(box.0)
                    boxes.append(box.1)
                    boxes.append(box.2)
                    boxes.append(box.3)
                }
            }
        }
        return boxes
    }
}
