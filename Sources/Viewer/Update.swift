import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapRender
import Support

/// A mouse event on a cell.
public enum MouseEvent: Equatable, Sendable {
    case wheelUp(col: Int, row: Int)
    case wheelDown(col: Int, row: Int)
    case click(col: Int, row: Int)
    /// The pointer moved `dx` columns and `dy` rows with the button down: the map follows it.
    case drag(dx: Int, dy: Int)
}

/// Everything that can happen to the viewer.
public enum InputEvent: Equatable, Sendable {
    case key(Key)
    /// Something the program around the viewer could not do, said on the message line (a bookmarks
    /// file it could not write).
    case problem(String)
    /// A command by its name (a script's `<zoom-in>`): as its key would, whatever key the keymap binds.
    case command(Command)
    case mouse(MouseEvent)
    case resize(cols: Int, rows: Int)
    /// Time passes (animations advance).
    case tick(seconds: Double)
    /// Time passes while the time bar plays (its clock advances at its speed).
    case clock(seconds: Double)
    /// No input for `seconds` (the kiosk's idle timeout ran out).
    case idleTimeout(seconds: Double)
    /// A frame was drawn, and its view lacked these tiles and levels of detail of the user's files (the
    /// render reports, the update asks).
    case rendered(
        missing: [TileBatch], streetDataEnds: Bool = false, streetDataInView: Bool = true, infoScrollLimit: Int? = nil,
        detail: [DetailRequest] = [])
    /// A level of detail a frame lacked has been made (in the background): the next frame draws it.
    case detailPrepared(DetailRequest)
    /// Tiles a load asked for have arrived (or could not be read: the next frame counts them).
    case tilesArrived(TileBatch)
    /// A file of the user's has been read, or a stream has new features: its layer shows them.
    case userFile(UserFileUpdate)
    /// The bookmarks file as written after a change (with what other viewers kept meanwhile).
    case bookmarksWritten(BookmarkList)
    /// The GPS source's news: a fix, no fix, a source gone (issue 49).
    case position(PositionUpdate)
}

/// A user's file as it now stands: read whole, or a stream's features so far.
public struct UserFileUpdate: Equatable, Sendable {
    /// The file's features (a stream's live ones).
    public var file: UserFile
    /// True when a stream has ended (its input closed).
    public var ended: Bool
    /// Lines of a stream that were not a feature.
    public var badLines: Int

    /// An update.
    public init(file: UserFile, ended: Bool = true, badLines: Int = 0) {
        (self.file, self.ended, self.badLines) = (file, ended, badLines)
    }

    public static func == (a: UserFileUpdate, b: UserFileUpdate) -> Bool {
        a.file === b.file && a.ended == b.ended && a.badLines == b.badLines
    }
}

/// What an update asks of the program around the viewer; the state itself holds no requests
/// (bubbletea's `Update(msg) (Model, Cmd)`).
public enum Effect: Equatable, Sendable {
    /// End the program: `q`, Ctrl-C, the idle timeout.
    case quit
    /// Redraw every cell of the terminal, whatever it shows now (Ctrl-L).
    case repaint
    /// Load tiles a view lacks; their arrival comes back as `InputEvent.tilesArrived`.
    case load(TileBatch)
    /// Make a level of detail of a user's file a view lacks (away from the keys); it comes back as
    /// `InputEvent.detailPrepared`.
    case prepare(DetailRequest)
    /// Put text on the clipboard of the person's own terminal (OSC 52: it crosses SSH and tmux).
    case copy(String)
    /// Make one change to the bookmarks file (to the file as it is then: another viewer's bookmarks
    /// stay); the file's list as written comes back as `InputEvent.bookmarksWritten`.
    case changeBookmarks(BookmarkChange)
    /// Capture the mouse (wheel, clicks, drags) or leave it to the terminal, which then selects text.
    case captureMouse(Bool)
    /// Give the terminal back to the shell until it continues the program (Ctrl-Z, then `fg`).
    case suspend
    /// Start (true) or stop recording the positions to a GPX track (`R`); the file comes back in the
    /// next `InputEvent.position`.
    case recordTrack(Bool)
}

/// The viewer's logic: state and event in, new state and effects out, nothing else touched. Keys go
/// through the open modes (`KeyboardInput.swift`), the mouse to `MouseInput.swift`, prompts to
/// `PromptInput.swift`, commands to their rows (`ViewerCommands`).
extension ViewerState {
    /// Applies one event and returns what the program must do besides drawing the new state.
    /// `places` answers `/` searches (nil: no gazetteer).
    @discardableResult
    public mutating func update(_ event: InputEvent, places: PlaceSearching? = nil) -> [Effect] {
        // Once the user moves the map, files read later no longer decide the view.
        let before = view
        let wasFollowing = position?.following == true || followsTrack
        followMoved = false
        defer {
            switch event {
            case .key, .mouse, .command:
                if view != before { fitsToFiles = false }
                if wasFollowing { stopFollowing(ifMovedFrom: before) }
            default: break
            }
        }
        switch event {
        case .key(let key): return handleKey(key, places: places)
        case .command(let command): return handleCommand(command, places: places)
        case .mouse(let m):
            animation = nil
            if pauseTour() { return [] }
            handleMouse(m)
        case .problem(let text): setError(text)
        case .userFile(let update): showUserFile(update)
        case .position(let update): showPosition(update)
        case .tick(let seconds): advanceAnimation(seconds)
        case .clock(let seconds): advanceClock(seconds)
        case .resize(let cols, let rows): resize(cols: cols, rows: rows)
        case .idleTimeout(let seconds):
            setMessage("idle for \(Int(seconds / 60)) min: goodbye")
            return [.quit]
        case .detailPrepared: break
        case .bookmarksWritten(let list):
            // Listed as the file has them now, other viewers' bookmarks included.
            if bookmarks != nil { bookmarks = list }
        case .rendered(let missing, let streetDataEnds, let streetDataInView, let infoScrollLimit, let detail):
            // The panel scrolls no further than its last line (only the frame knows how many it has).
            if let limit = infoScrollLimit { infoScroll = min(infoScroll, limit) }
            sayWhereStreetDataIs(ends: streetDataEnds, inView: streetDataInView)
            return requestTiles(notArrivedFor: missing) + detail.map { .prepare($0) }
        case .tilesArrived(let batch): noteArrival(batch)
        }
        return []
    }

    /// Time passes: the animation advances.
    private mutating func advanceAnimation(_ seconds: Double) {
        guard var a = animation, seconds.isFinite, seconds > 0 else { return }
        a.progress = min(1, a.progress + seconds / ViewAnimation.duration)
        animation = a.progress >= 1 ? nil : a
    }

    /// Says where the street data stops when a view first shows its edge, and how to get some when a
    /// street view first has none: once each time the views enter such a place, over a key's routine
    /// message (a pan's `pan to …`; an error stays, and the hint comes at the next view instead).
    private mutating func sayWhereStreetDataIs(ends: Bool, inView: Bool) {
        let hint: StreetDataHint? =
            ends
            ? .endsHere
            : !inView && suggestsStreetData && displayedView.zoom >= Self.streetZoom ? .noneHere : nil
        guard hint != streetDataHint else { return }
        guard let hint else {
            streetDataHint = nil
            return
        }
        guard !messageIsError || message.isEmpty else { return }
        streetDataHint = hint
        // A tour's captions are the presenter's words: its views earn no hint.
        guard tour == .off else { return }
        setMessage(hint.text)
        showsStreetDataHint = true
    }

    /// Tiles that arrived for this view and are lacking again do not fit the cache with the rest: asked
    /// for once a view, not in a loop.
    private mutating func requestTiles(notArrivedFor missing: [TileBatch]) -> [Effect] {
        let drawnView = displayedView
        if drawnView != tilesView {
            tilesView = drawnView
            arrivedTiles = [:]
        }
        return requestTiles(
            missing.compactMap { batch in
                let tiles = batch.tiles.filter { !(arrivedTiles[batch.source]?.contains($0) ?? false) }
                return tiles.isEmpty ? nil : TileBatch(source: batch.source, tiles: tiles)
            })
    }

    /// Tiles a load asked for have arrived: they are asked for no more.
    private mutating func noteArrival(_ batch: TileBatch) {
        arrivedTiles[batch.source, default: []].formUnion(batch.tiles)
        if let wanted = requestedTiles[batch.source] {
            let left = wanted.filter { !batch.tiles.contains($0) }
            requestedTiles[batch.source] = left.isEmpty ? nil : left
        }
    }

    /// Asks for the tiles a drawn view lacked, source by source, unless the last request was the same
    /// (a frame drawn again while they load asks nothing more); a source that lacks nothing more is done.
    private mutating func requestTiles(_ missing: [TileBatch]) -> [Effect] {
        var effects: [Effect] = []
        for batch in missing where requestedTiles[batch.source] != batch.tiles {
            requestedTiles[batch.source] = batch.tiles
            effects.append(.load(batch))
        }
        for source in requestedTiles.keys where !missing.contains(where: { $0.source == source }) {
            requestedTiles[source] = nil
        }
        return effects
    }

    // MARK: Messages: every line the viewer says goes through these two.

    public mutating func setMessage(_ text: String) {
        message = text
        messageIsError = false
    }

    public mutating func setError(_ text: String) {
        message = text
        messageIsError = true
    }
}
