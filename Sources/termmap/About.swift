import MapData
import MapFormats
import MapRender

/// Version, help and attribution texts.
enum About {
    static let version = "termmap \(HTTPPool.version)"

    static let title = "termmap \u{2014} a keyboard-driven map viewer for the terminal."

    /// `--about`: what each data source of a run is and how it is credited, from the run's one list
    /// of sources (the same credits the status line shows), coarsest first.
    static func attribution(_ sources: MapSources?) -> String {
        var lines = [title]
        guard let features = sources?.features else {
            // No world file to read: the bundled world's credits all the same.
            lines += ["Map data: \(Credit.naturalEarth.text).", "Places: \(Credit.geoNames.text)."]
            return lines.joined(separator: "\n")
        }
        func texts(_ credits: [Credit]) -> String { credits.map(\.text).joined(separator: "; ") }
        lines.append("Map data: \(texts(features.base.credits)).")
        if !features.base.placeCredits.isEmpty { lines.append("Places: \(texts(features.base.placeCredits)).") }
        if let shorelines = features.shorelines { lines.append("Imported shorelines: \(texts(shorelines.credits)).") }
        for source in features.details {
            if let tiles = source as? TileSource {
                lines.append("Tiles: \(tiles.label) (\(tiles.archive.info.name)): \(texts(tiles.credits)).")
            } else if let asset = source as? MapAsset {
                let licence = asset.metadata["licence"].map { ", \($0)" } ?? ""
                let credit = asset.credits.isEmpty ? "source unknown" : texts(asset.credits)
                lines.append(
                    "Streets: \(asset.label) (\(asset.metadata["source"] ?? asset.name)): \(credit)\(licence).")
            }
        }
        if let imagery = sources?.imagery {
            let credit = imagery.credits.isEmpty ? "source unknown" : texts(imagery.credits)
            lines.append("Imagery: \(imagery.label) (\(imagery.info.name)): \(credit).")
        }
        return lines.joined(separator: "\n")
    }
}
