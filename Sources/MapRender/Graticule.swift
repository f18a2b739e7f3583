import GeoCore
import Raster

/// The adaptive latitude/longitude grid: spacing from a 1-2-5-style ladder of degrees, minutes and
/// seconds (30°, 10°, 5°, 2°, 1°, 30′, 10′, 5′, 2′, 1′, 30″ … 0.0001″) so that lines stay about
/// `targetDots` apart at every zoom from 0 to 28.
public enum Graticule {
    /// Spacings in arcseconds, large to small.
    public static let spacingsArcseconds: [Double] = {
        var s: [Double] = [30, 10, 5, 2, 1].map { $0 * 3600 } + [30, 10, 5, 2, 1].map { $0 * 60 } + [30, 10, 5, 2, 1]
        var decade = 0.1
        for _ in 0..<5 {
            s += [5 * decade, 2 * decade, decade]
            decade /= 10
        }
        return s
    }()

    /// Smallest distance between lines, in dots.
    public static let targetDots = 40.0

    /// The spacing in degrees for a world `worldSize` dots wide.
    public static func spacing(worldSize: Double) -> Double {
        let dotsPerDegree = worldSize / 360
        var chosen = spacingsArcseconds[0]
        for s in spacingsArcseconds where s / 3600 * dotsPerDegree >= targetDots { chosen = s }
        return chosen / 3600
    }

    /// `30°N`, `12°30′E`, `12°30′15″S`, `0°0′0.25″E`: as precise as the spacing needs.
    public static func label(_ value: Double, spacing: Double, positive: Character, negative: Character) -> String {
        let spacingSeconds = spacing * 3600
        var decimals = 0
        var unit = 1.0
        while spacingSeconds * unit < 0.999, decimals < 6 {
            decimals += 1
            unit *= 10
        }
        let total = Int64((abs(value) * 3600 * unit).rounded())
        let perDegree = Int64(3600 * unit)
        let perMinute = Int64(60 * unit)
        let deg = total / perDegree
        let min = (total % perDegree) / perMinute
        let secUnits = total % perMinute
        let hemisphere = total == 0 || total == 180 * perDegree ? "" : String(value < 0 ? negative : positive)
        if spacingSeconds >= 3600 { return "\(deg)°\(hemisphere)" }
        if spacingSeconds >= 60 { return "\(deg)°\(min)′\(hemisphere)" }
        let whole = secUnits / Int64(unit)
        var sec = "\(whole)"
        if decimals > 0 {
            let frac = String(secUnits % Int64(unit))
            sec += "." + String(repeating: "0", count: decimals - frac.count) + frac
        }
        return "\(deg)°\(min)′\(sec)″\(hemisphere)"
    }
}

/// The latitude/longitude grid with its labels at the top and left edges, and dotted lines where the
/// square Mercator world ends (±85.0511°).
public struct GraticuleLayer: MapLayer, Equatable {
    /// The grid.
    public init() {}

    public func draw(into c: inout LayerContext) {
        drawEdges(&c)
        for label in drawLines(&c) { c.labels.place(label) }
    }

    /// Dotted lines where the square Mercator world ends.
    func drawEdges(_ c: inout LayerContext) {
        let t = c.transform
        for edgeY in [0.0, 1.0] {
            let y = t.dotY(edgeY)
            if y >= 0, y < c.view.size.heightDots {
                c.canvas.line(0, y, c.view.size.widthDots, y, ink: StyleTable.ink(.edge), every: 2)
            }
        }
    }

    /// Dotted meridians and parallels, and their labels (as written: the engine takes the cells of
    /// `°`, which ASCII drops, so that a label's place is the same in both glyph modes).
    func drawLines(_ c: inout LayerContext) -> [MapLabel] {
        let view = c.view
        let s = Graticule.spacing(worldSize: view.worldSize)
        let b = view.bounds
        let t = c.transform
        let w = view.size.widthDots
        let h = view.size.heightDots
        let top = max(0, t.dotY(0))
        let bottom = min(h, t.dotY(1))
        var labels: [MapLabel] = []
        guard bottom > top else { return labels }
        // At street level the grid steps back behind the streets and paths: a dot every 8, not 4.
        let every = view.zoom >= Self.streetLevelZoom ? 8 : 4
        // The dots of a dotted line sit at world positions (multiples of `every` dots from the world's
        // corner), so a pan moves them with the map instead of leaving them in place on the screen.
        let originX = Self.dotPhase(-t.originX(copy: 0), every)
        let originY = Self.dotPhase(-t.originY, every)
        let first = (b.west / s).rounded(.up)
        let last = (b.east / s).rounded(.down)
        if last - first < 400 {
            var k = first
            while k <= last {
                let lon = k * s
                let x = t.dotX((lon + 180) / 360)
                c.canvas.line(x, top, x, bottom, ink: StyleTable.ink(.grid), every: every, phase: originY)
                let text = Graticule.label(WebMercator.wrapLongitude(lon), spacing: s, positive: "E", negative: "W")
                labels.append(
                    MapLabel(
                        text: text, col: BrailleCanvas.dot(x) / 2 + 1,
                        row: BrailleCanvas.dot(top) / 4, role: .gridLabel))
                k += 1
            }
        }
        let firstLat = (b.south / s).rounded(.up)
        let lastLat = (b.north / s).rounded(.down)
        if lastLat - firstLat < 400 {
            var k = firstLat
            while k <= lastLat {
                let lat = k * s
                let y = t.dotY(WebMercator.project(Coordinate(latitude: lat, longitude: 0)).y)
                if abs(lat) < WebMercator.maxLatitude {
                    c.canvas.line(0, y, w, y, ink: StyleTable.ink(.grid), every: every, phase: originX)
                    labels.append(
                        MapLabel(
                            text: Graticule.label(lat, spacing: s, positive: "N", negative: "S"), col: 0,
                            row: BrailleCanvas.dot(y) / 4, role: .gridLabel))
                }
                k += 1
            }
        }
        return labels
    }

    /// The zoom from which the grid is sparser (buildings and paths are drawn from 15).
    static let streetLevelZoom = 15.0

    /// Which of `n` dots a position in dots falls on (its dot modulo n).
    static func dotPhase(_ v: Double, _ n: Int = 4) -> Int { ((BrailleCanvas.dot(v) % n) + n) % n }
}
