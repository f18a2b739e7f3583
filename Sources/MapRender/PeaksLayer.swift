import GeoCore
import MapData
import MapFormats
import Raster

/// A peak or pass in view: its name, height, cell and feature (as the pick buffer tags it).
struct Peak {
    var name: String?
    var meters: Int?
    var pass: Bool
    var col: Int
    var row: Int
    var feature: UInt32
}

/// Peaks and mountain passes (issue 48), from zoom 11: a `▲` at each peak (`×` at a pass; `^` and `x` in
/// ASCII) and beside it its name and height (`▲ Halti 1324 m`), placed by the label engine after the
/// points of interest, the highest first. A point whose label has no room is left out whole.
public struct PeaksLayer: MapLayer, Equatable {
    /// The layer.
    public init() {}

    public func draw(into c: inout LayerContext) {
        guard !c.peaks.isEmpty else { return }
        // Highest first; then top to bottom, left to right, so that a pan keeps the same order.
        let order = c.peaks.indices.sorted { a, b in
            let (p, q) = (c.peaks[a], c.peaks[b])
            return (-(p.meters ?? -20_000), p.row, p.col) < (-(q.meters ?? -20_000), q.row, q.col)
        }
        for i in order {
            let peak = c.peaks[i]
            let words = [peak.name, peak.meters.map { "\($0) m" }].compactMap { $0 }.joined(separator: " ")
            let glyph = c.ascii ? (peak.pass ? "x" : "^") : (peak.pass ? "×" : "▲")
            let sign = MapLabel(text: glyph, col: peak.col, row: peak.row, role: .feature(.peak))
            guard !words.isEmpty else {
                if c.labels.place(sign) { c.labels.nameLast(peak.feature) }
                continue
            }
            let text = Transliteration.screenText(words, ascii: c.ascii)
            if c.labels.placeBeside(
                text, role: .feature(.peak), markerCol: peak.col, markerRow: peak.row, drawsMarker: false,
                canvas: c.canvas, gap: true) != nil
            {
                c.labels.nameLast(peak.feature)
                c.labels.addSign(sign, feature: peak.feature)
            }
        }
    }

    /// The peaks of a chunk in view, for `draw`.
    static func collect(
        _ hit: ChunkHit, _ t: ViewTransform, source: any ChunkSource, pickChunk: Int, _ c: inout LayerContext
    ) {
        let chunk = hit.chunk
        let place = ChunkPlacement(hit, t)
        let (w, h) = (c.view.size.widthDots, c.view.size.heightDots)
        for f in 0..<chunk.featureCount {
            let (meters, pass) = PeakDetail.decode(chunk.detail(f))
            for part in chunk.featureStarts[f]..<chunk.featureStarts[f + 1] {
                let i = chunk.starts[part]
                let (x, y) = (chunk.x[i] * place.ws + place.offsetX, chunk.y[i] * place.ws + place.offsetY)
                guard x >= 0, y >= 0, x < w, y < h else { continue }
                if let r = place.clip, !(x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) { continue }
                c.peaks.append(
                    Peak(
                        name: chunk.nameIndex[f] >= 0 ? source.featureName(chunk.nameIndex[f]) : nil, meters: meters,
                        pass: pass, col: Int(x) / ViewSize.dotsPerCellX, row: Int(y) / ViewSize.dotsPerCellY,
                        feature: c.pick.tag(set: pickChunk, feature: f)))
            }
        }
    }
}
