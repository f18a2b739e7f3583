import GeoCore
import MapFormats
import Synchronization

/// A file of the user's own, read: its name as given, its format, its features, or why it failed.
public final class UserFile: FeatureSource {
    /// The file as the command line gave it (`-` for standard input).
    public let file: String
    /// Its format.
    public let format: UserDataFormat
    /// Its features (empty when it failed).
    public let data: UserLayerData
    /// Why it could not be read (one line), if it could not.
    public let error: String?
    /// While it is being read, the share read so far (0…1); nil once read.
    public let progress: Double?
    /// Its tracks with a time at each vertex (issue 49), and what was said of them (times sorted, times
    /// that do not match a line's points).
    public let timedTracks: [TimedTrack]
    public let timeNotes: [String]

    /// A file read (or, with `progress`, being read).
    public init(
        file: String, format: UserDataFormat, data: UserLayerData, error: String? = nil, progress: Double? = nil
    ) {
        self.file = file
        self.format = format
        self.data = data
        self.error = error
        self.progress = progress
        (timedTracks, timeNotes) = progress == nil ? TimedTracks.of(data) : ([], [])
    }

    /// The level a view at `zoom` draws: an integer zoom below 12 (a level of detail), 12 from there on
    /// (the whole file).
    public static func level(forZoom zoom: Double) -> Int {
        zoom < Double(finestLevel) ? max(0, Int(zoom.rounded(.down))) : finestLevel
    }

    /// The level `level` when it has been made (`prepare`), else nil: drawing never makes one (a
    /// million-point ring took seconds to simplify; keys wait for no level).
    public func readyLevel(_ level: Int) -> UserLayerLevel? { levels.withLock { $0.made[level] } }

    /// What a view at `zoom` can draw now: its level when made, else the nearest level made (coarser
    /// first), else nil; and the level it wants when that one is not made yet.
    public func detail(zoom: Double) -> (level: UserLayerLevel?, wanted: Int?) {
        let wanted = Self.level(forZoom: zoom)
        return levels.withLock { l in
            if let level = l.made[wanted] { return (level, nil) }
            let nearest = l.made.keys.min {
                (abs($0 - wanted), $0 > wanted ? 1 : 0) < (abs($1 - wanted), $1 > wanted ? 1 : 0)
            }
            return (nearest.flatMap { l.made[$0] }, wanted)
        }
    }

    /// Makes level `level` (in the caller's thread; once: a level made or being made is not made again)
    /// and keeps it; true when this call made it.
    @discardableResult
    public func prepare(_ level: Int) -> Bool {
        let start = levels.withLock { l in l.made[level] == nil && l.preparing.insert(level).inserted }
        guard start else { return false }
        let made: UserLayerLevel
        if level >= Self.finestLevel {
            made = UserLayerLevel(
                data: data, feature: nil, index: BoxIndex(features: data), dust: UserLayerDots(),
                points: UserLayerDots())
        } else {
            let d = UserLayerDetail(data, dotSize: 1 / WebMercator.worldSize(zoom: Double(level)))
            made = UserLayerLevel(
                data: d.data, feature: d.feature, index: BoxIndex(features: d.data), dust: d.dust, points: d.points)
        }
        levels.withLock { l in
            l.made[level] = made
            l.preparing.remove(level)
        }
        return true
    }

    /// The zoom from which the whole file is drawn.
    public static let finestLevel = 12
    /// The levels made, and those being made.
    private let levels = Mutex<(made: [Int: UserLayerLevel], preparing: Set<Int>)>(([:], []))

    /// What the pick calls its features: `file NAME`.
    public var className: String { "file \(displayName)" }

    /// The file's name without its folders (for the layer list and labels).
    public var displayName: String {
        file == "-" ? "standard input" : file.split(separator: "/").last.map(String.init) ?? file
    }
}

/// A level of detail of a user's file that a view wants and that is not made yet: the program makes it
/// (in the background for the viewer) and draws again.
public struct DetailRequest: Equatable, Sendable {
    /// The file.
    public let file: UserFile
    /// The level (`UserFile.level(forZoom:)`).
    public let level: Int

    /// A request.
    public init(file: UserFile, level: Int) {
        self.file = file
        self.level = level
    }

    public static func == (a: DetailRequest, b: DetailRequest) -> Bool { a.file === b.file && a.level == b.level }
}

/// A file at a level of detail: its features, the whole file's feature each stands for (nil: the same),
/// where they lie, the lines and areas that are a dot at this level, and the features of one point.
public struct UserLayerLevel: Sendable {
    public let data: UserLayerData
    public let feature: [Int]?
    public let index: BoxIndex
    public let dust: UserLayerDots
    /// The features of one point, one a cell (below the finest level).
    public let points: UserLayerDots
}

extension UserFile {
    public var label: String { displayName }
    public var kind: SourceKind { .file }
    /// The longitudes and latitudes its features span (none while it is read or when it failed).
    public var coverage: CoordinateBounds { data.bounds ?? CoordinateBounds(north: 0, south: 0, west: 0, east: 0) }
    /// A file is drawn at every zoom, in less detail further out.
    public var minZoom: Double { 0 }
    /// The user's own data states no attribution termmap reads.
    public var attribution: String? { nil }
    public var credits: [Credit] { [] }
    /// Its level of detail for `zoom` (a level a zoom below 12, the whole file from there on).
    public func detail(atZoom zoom: Double) -> SourceDetail {
        .level(Self.level(forZoom: zoom), of: Self.finestLevel + 1)
    }
}
