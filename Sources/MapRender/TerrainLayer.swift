import GeoCore
import MapData
import MapFormats

/// The terrain (issue 48): the height under the view's centre (the crosshair) from the run's elevation
/// tiles, and the source's state for `render --json`. Draws nothing yet; contours and hillshade are to
/// come here.
public struct TerrainLayer: MapLayer, Equatable {
    /// The layer.
    public init() {}

    public func draw(into context: inout LayerContext) {
        guard let sources = context.sources, let source = sources.terrain else { return }
        let view = context.view
        let center = view.centerPoint
        let height = source.height(at: center, zoom: view.zoom)
        var status = SourceStatus()
        let tile = TerrainSource.tile(at: center, zoom: source.tileZoom(view.zoom))
        let failure = source.tiles.failure(tile)
        if height != nil || source.tiles.image(tile) != nil {
            status.cached = 1
        } else if failure.failed {
            if failure.offline { status.offline = 1 } else { status.failed = 1 }
        } else if source.tiles.covers(tile) {
            status.loading = 1
        }
        let missing = Self.missing(source, view: view)
        if !missing.isEmpty {
            context.report.missing.append(TileBatch(source: sources.terrainIndex, tiles: missing))
        }
        let inView = status.cached + status.loading + status.failed + status.offline > 0
        let name = SourceNames.display(source.label)
        context.report.terrain = SourceReport(
            name: name, kind: .terrain, credits: source.tiles.credits, inView: inView,
            detail: inView ? .tileZoom(height?.tileZoom ?? tile.z) : nil, status: status)
        context.report.centerHeight = height.map { ($0.meters, name) }
        if height != nil { context.report.credit(source.tiles.credits) }
    }

    /// The tiles the height under `view`'s centre is read from (at the terrain's tile zoom) that are
    /// not at hand and not tried.
    static func missing(_ source: TerrainSource, view: MapView) -> [TileID] {
        source.tiles(for: view.centerPoint, tileZoom: source.tileZoom(view.zoom)).filter {
            source.tiles.covers($0) && !source.hasTried($0)
        }
    }
}
