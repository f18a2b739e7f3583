import GeoCore
import MapData
import MapFormats

/// Every place the viewer may name, one row a place (a row number is the place's id everywhere: label
/// texts are kept by it): the base's places in its file's order (largest first), then the street-level
/// sources' suburbs and neighbourhoods, each kind largest first. Names stay in the files until a label
/// needs one.
struct PlaceTable: Sendable {
    /// The base's places.
    let base: PlacePoints
    /// The street-level sources' places, and the place of each one's source in `FeatureSources.details`.
    let extras: [City]
    let extraSources: [Int]
    init(base: PlacePoints, extras: [City], extraSources: [Int] = []) {
        self.base = base
        self.extras = extras
        self.extraSources = extraSources.count == extras.count ? extraSources : extras.map { _ in 0 }
    }

    /// Place `id`'s label rank (`rank(population:kind:)`): worked out when asked, since a column of
    /// 34,006 of them cost more to fill than the few hundred a view compares.
    func rank(_ id: Int) -> Int {
        id < base.count
            ? Self.rank(population: base.population[id], kind: base.kind[id])
            : Self.rank(population: extras[id - base.count].population, kind: extras[id - base.count].kind)
    }

    /// How many places.
    var count: Int { base.count + extras.count }

    /// What place `id` is.
    func kind(_ id: Int) -> PlaceKind { id < base.count ? base.kind[id] : extras[id - base.count].kind }

    /// Where place `id` is.
    func coordinate(_ id: Int) -> Coordinate {
        id < base.count ? base.coordinate(id) : extras[id - base.count].coordinate
    }

    /// The places in a box (west may lie past -180° and east past 180°: the world repeats), in id order.
    func within(south: Double, north: Double, west: Double, east: Double) -> [Int] {
        let everyLongitude = east - west >= 360
        func inside(_ lat: Double, _ lon: Double) -> Bool {
            lat >= south && lat <= north
                && (everyLongitude || (lon >= west && lon <= east) || (lon + 360 >= west && lon + 360 <= east)
                    || (lon - 360 >= west && lon - 360 <= east))
        }
        var out: [Int] = []
        base.latitude.withUnsafeBufferPointer { lat in
            base.longitude.withUnsafeBufferPointer { lon in
                for i in lat.indices where inside(lat[i], lon[i]) { out.append(i) }
            }
        }
        for (k, p) in extras.enumerated() where inside(p.coordinate.latitude, p.coordinate.longitude) {
            out.append(base.count + k)
        }
        return out
    }

    /// Whether place `a` is named before place `b`: the base's places by rank (the file's order among
    /// equals), then the street-level places in their order.
    func precedes(_ a: Int, _ b: Int) -> Bool {
        let n = base.count
        guard a < n, b < n else { return a < b }
        return (-rank(a), a) < (-rank(b), b)
    }

    /// How places rank for labels: by population, a country's capital counted half again (so it wins
    /// over a city of its size, not over a much larger one).
    static func rank(population: Int, kind: PlaceKind) -> Int { kind == .capital ? population * 3 / 2 : population }
}

/// The places of a table by grid cell, 64 × 64 cells of equal degrees over the world, so that a view
/// looks only at the places near it. Degrees, not Mercator, so that making it needs no logarithm per
/// place (it is made on the first view that names from all places, zoom 7 and closer).
struct PlaceGrid: Sendable {
    static let size = 64
    /// Where each cell's ids begin in `ids` (cell `row · size + col`; one more entry for the end).
    private let start: [Int32]
    /// Place ids, cell after cell.
    private let ids: [Int32]

    init(_ table: PlaceTable) {
        let n = Self.size
        var cells = [Int](repeating: 0, count: table.count)
        for i in 0..<table.base.count {
            cells[i] = Self.row(table.base.latitude[i]) * n + Self.column(table.base.longitude[i])
        }
        for (k, p) in table.extras.enumerated() {
            cells[table.base.count + k] = Self.row(p.coordinate.latitude) * n + Self.column(p.coordinate.longitude)
        }
        var start = [Int32](repeating: 0, count: n * n + 1)
        for cell in cells { start[cell + 1] += 1 }
        for i in 0..<(n * n) { start[i + 1] += start[i] }
        var next = start
        var ids = [Int32](repeating: 0, count: cells.count)
        for (id, cell) in cells.enumerated() {
            ids[Int(next[cell])] = Int32(id)
            next[cell] += 1
        }
        self.start = start
        self.ids = ids
    }

    private static func row(_ latitude: Double) -> Int {
        min(size - 1, max(0, Int(((latitude + 90) / 180 * Double(size)).rounded(.down))))
    }

    /// The column of a longitude (any: the world repeats).
    private static func column(_ longitude: Double) -> Int {
        let c = Int(((longitude + 180) / 360 * Double(size)).rounded(.down))
        return ((c % size) + size) % size
    }

    /// The ids of the places in the cells that meet a box (west may lie past -180° and east past 180°:
    /// the world repeats), in no particular order.
    func near(south: Double, north: Double, west: Double, east: Double) -> [Int] {
        guard south <= north, west <= east else { return [] }
        let rows = Self.row(south)...Self.row(north)
        let firstColumn = Int(((west + 180) / 360 * Double(Self.size)).rounded(.down))
        let lastColumn = min(firstColumn + Self.size - 1, Int(((east + 180) / 360 * Double(Self.size)).rounded(.down)))
        var out: [Int] = []
        for row in rows {
            for column in firstColumn...lastColumn {
                let cell = row * Self.size + ((column % Self.size) + Self.size) % Self.size
                for k in Int(start[cell])..<Int(start[cell + 1]) { out.append(Int(ids[k])) }
            }
        }
        return out
    }
}

/// Places in the order a view names them, with their Mercator positions: a small-scale view's few (of a
/// tier), or those near a closer view. Their names come from the sources, by id, when a label needs one.
struct RankedPlaces: Sendable {
    var id: [Int] = []
    var kind: [PlaceKind] = []
    var rank: [Int] = []
    var x: [Double] = []
    var y: [Double] = []

    /// `ids` of `table`, in the order given, projected.
    init(_ ids: [Int], of table: PlaceTable) {
        id = ids
        kind = ids.map(table.kind)
        rank = ids.map(table.rank)
        for i in ids {
            let p = WebMercator.project(table.coordinate(i))
            x.append(p.x)
            y.append(p.y)
        }
    }

    /// The base's first places `points` (their ids are their positions), by rank, projected.
    init(firstPlaces points: PlacePoints) {
        let ranks = points.kind.indices.map {
            PlaceTable.rank(population: points.population[$0], kind: points.kind[$0])
        }
        id = points.kind.indices.sorted { (-ranks[$0], $0) < (-ranks[$1], $1) }
        kind = id.map { points.kind[$0] }
        rank = id.map { ranks[$0] }
        for i in id {
            let p = WebMercator.project(points.coordinate(i))
            x.append(p.x)
            y.append(p.y)
        }
    }
}
