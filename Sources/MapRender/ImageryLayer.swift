import GeoCore
import MapData
import MapFormats
import Raster

/// The raster imagery under the map (issue 47): each cell's two half-cells' colours from the run's
/// raster tileset, for the compositor to show as `▀` (or as the halo under what the map draws over
/// them). Drawn first; `I` leaves it out.
public struct ImageryLayer: MapLayer, Equatable {
    /// The layer.
    public init() {}

    public func draw(into context: inout LayerContext) {
        guard let sources = context.sources, let source = sources.imagery else { return }
        let size = context.view.size
        let sampled = ImagerySampler.sample(
            source, transform: context.transform, viewZoom: context.view.zoom, cols: size.cols, rows: size.rows)
        context.imagery = sampled.drawn ? sampled.halves : []
        let inView = sampled.status.cached + sampled.status.loading + sampled.status.failed + sampled.status.offline > 0
        context.report.imagery = SourceReport(
            name: SourceNames.display(source.label), kind: .imagery, credits: source.credits, inView: inView,
            detail: inView ? .tileZoom(sampled.tileZoom) : nil, status: sampled.status)
        var missing = sampled.missing
        if let cell = context.wantsPicture, sampled.drawn {
            let t = context.transform
            var key = Hasher()
            for v in [t.center.x, t.center.y, t.worldSize, t.halfWidth, t.halfHeight, context.view.zoom] {
                key.combine(v)
            }
            for v in [size.cols, size.rows, cell.width, cell.height, source.generation] { key.combine(v) }
            let made = key.finalize()
            let (picture, deeper) =
                sources.picture(for: made)
                ?? ImagerySampler.picture(
                    source, transform: t, viewZoom: context.view.zoom, cols: size.cols, rows: size.rows, cell: cell)
            sources.keep(picture, missing: deeper, for: made)
            context.picture = picture
            missing += deeper.filter { !missing.contains($0) }
        }
        if !missing.isEmpty {
            context.report.missing.append(TileBatch(source: sources.imageryIndex, tiles: missing))
        }
        if sampled.drawn { context.report.credit(source.credits) }
    }
}
