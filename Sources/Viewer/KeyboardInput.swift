import GeoCore
import MapData
import MapRender

/// What the viewer is doing besides showing the map: each open prompt or panel is a mode with keys of
/// its own. A key goes to the open modes in turn (`ViewerState.modes`, the topmost first): a mode takes
/// it or lets it through, and the map's keymap takes what every open mode let through.
public enum Mode: String, CaseIterable, Sendable {
    /// A prompt on the message line (`z`, `r`, `g`, `/`, a bookmark's name) takes every key.
    case prompt
    /// The explain panel (`e`): any key closes it.
    case explain
    /// The help (`?`): Space turns a page, any other key closes it.
    case help
    /// The bookmark list (`'`): a digit goes (after `d`: deletes), any other key closes it.
    case bookmarks
    /// The copy menu (`y`): a digit copies, any other key closes it.
    case copyMenu = "copy-menu"
    /// The what-is-here panel (`i`): ↑ ↓ scroll, Esc closes; other keys go on (hjkl move the crosshair).
    case info
    /// The ruler (`M`): Backspace takes back a vertex, Esc ends it; other keys go on.
    case ruler
    /// A route or reach (`d`, `D`): Tab, Esc, `r`, and ↑ ↓ Enter in the steps; other keys go on.
    case directions
    /// The time bar (`T`): ← → step, `[` `]` speed, Space plays, `t` aligns starts, 1–9 follows a track,
    /// Esc closes; other keys go on.
    case timeBar = "time-bar"
    /// The layer list (`o`): a digit shows or hides that file; other keys go on.
    case layers
    /// The map: the keymap's commands.
    case map
}

extension ViewerState {
    /// The open modes, the one that sees a key first first; the map is always last.
    public var modes: [Mode] {
        var open: [Mode] = []
        if prompt != nil { open.append(.prompt) }
        if showExplain { open.append(.explain) }
        if showHelp { open.append(.help) }
        if showBookmarks { open.append(.bookmarks) }
        if showCopyMenu { open.append(.copyMenu) }
        if showInfo { open.append(.info) }
        if ruler != nil { open.append(.ruler) }
        if directions.start != nil || directions.reach != nil { open.append(.directions) }
        if timeBar != nil { open.append(.timeBar) }
        if showLayers { open.append(.layers) }
        return open + [.map]
    }

    /// The mode a key goes to first.
    public var mode: Mode { modes.first ?? .map }

    /// A key: a command that works in every mode runs whatever is open (Ctrl-Z suspends a prompt, a
    /// panel or a tour, which is there on `fg`); otherwise a key finishes an animation at once, a key
    /// during a tour only hands the map to the user, and the open modes are asked in turn.
    mutating func handleKey(_ key: Key, places: PlaceSearching?) -> [Effect] {
        // A street-data hint lasts until the next key.
        if showsStreetDataHint {
            showsStreetDataHint = false
            if message == streetDataHint?.text { message = "" }
        }
        if let command = keymap.command(for: key), row(command)?.worksInEveryMode == true {
            return perform(command, places: places)
        }
        animation = nil
        if pauseTour() { return [] }
        for mode in modes {
            if let effects = handleKey(key, in: mode, places: places) { return effects }
        }
        return []
    }

    /// A command by its name (a script's `<zoom-in>`): as its key would, whatever key the keymap binds.
    /// It is never typed into a prompt: the prompt is left first, as with Esc.
    mutating func handleCommand(_ command: Command, places: PlaceSearching?) -> [Effect] {
        // A stop asked from outside is not a key: whatever is open stays.
        if row(command)?.worksInEveryMode == true { return perform(command, places: places) }
        prompt = nil
        if let key = keymap.key(for: command) { return handleKey(key, places: places) }
        animation = nil
        if pauseTour() { return [] }
        return perform(command, places: places)
    }

    /// What `mode` does with a key: its effects, or nil when it lets the key through to the next mode.
    mutating func handleKey(_ key: Key, in mode: Mode, places: PlaceSearching?) -> [Effect]? {
        switch mode {
        case .prompt:
            handlePromptKey(key, places: places)
            // What the prompt's answer asks of the program (a bookmark to write), handed on now.
            defer { pendingEffects = [] }
            return pendingEffects
        case .explain:
            // A key that closes the panel does nothing else.
            showExplain = false
            return []
        case .help: return helpKey(key)
        case .bookmarks: return bookmarkListKey(key)
        case .copyMenu: return copyMenuKey(key)
        case .info: return infoKey(key)
        case .ruler: return rulerKey(key)
        case .directions: return directionsKey(key, places: places)
        case .timeBar: return timeBarKey(key) ? [] : nil
        case .layers: return layerListKey(key)
        case .map:
            guard let command = keymap.command(for: key) else {
                if key != .escape { setError("no command on key \(key.label); press ? for help") }
                return []
            }
            return perform(command, places: places)
        }
    }

    /// Pauses a playing tour (true), or does nothing (false).
    mutating func pauseTour() -> Bool {
        guard case .playing(let step, let steps) = tour else { return false }
        tour = .paused(step: step, steps: steps)
        setMessage("tour paused: the map is yours; t resumes the tour")
        return true
    }

    /// A key with the help open: Space turns its page when it has more; any other key closes it.
    private mutating func helpKey(_ key: Key) -> [Effect] {
        if key == .char(" "), helpPage + 1 < helpLayout.pages {
            helpPage += 1
        } else {
            showHelp = false
            helpPage = 0
        }
        return []
    }

    /// What `y` says before the text it sent.
    static let sentToClipboard = "sent to your terminal's clipboard (OSC 52): "

    /// `y`'s menu: a digit copies, anything else closes it.
    private mutating func copyMenuKey(_ key: Key) -> [Effect] {
        showCopyMenu = false
        guard case .char(let c) = key, let n = c.wholeNumberValue, let text = copyText(n) else {
            setMessage("nothing copied")
            return []
        }
        // Sent, not copied: a terminal may ignore OSC 52 (or ask its user first).
        setMessage("\(Self.sentToClipboard)\(text)")
        return [.copy(text)]
    }

    /// The open panel takes ↑ ↓ (it scrolls) and Esc (it closes); hjkl still move the crosshair.
    private mutating func infoKey(_ key: Key) -> [Effect]? {
        switch key {
        case .escape: showInfo = false
        case .up, .down: infoScroll = max(0, infoScroll + (key == .down ? 1 : -1))
        default: return nil
        }
        return []
    }

    /// With a ruler on, Backspace takes back its last vertex and Esc ends it.
    private mutating func rulerKey(_ key: Key) -> [Effect]? {
        guard var r = ruler, key == .backspace || key == .escape else { return nil }
        if key == .escape || !r.removeLast() {
            ruler = nil
            setMessage("ruler off")
        } else {
            ruler = r
            sayRuler(r)
        }
        return []
    }

    /// With the layer list open a digit shows or hides that file.
    private mutating func layerListKey(_ key: Key) -> [Effect]? {
        if key == .char("p") {
            if choosingProfile || profileFile != nil {
                (choosingProfile, profileFile) = (false, nil)
                setMessage("no track's profile")
                return []
            }
            guard terrainName != nil else {
                setMessage("no terrain for a profile: give elevation tiles with --terrain (see docs/terrain.md)")
                return []
            }
            choosingProfile = true
            setMessage("the elevation profile of which file's track? (1–9)")
            return []
        }
        let choosing = choosingProfile
        choosingProfile = false
        guard case .char(let c) = key, let n = c.wholeNumberValue, n >= 1, n <= min(9, userLayers.count) else {
            return nil
        }
        if choosing {
            let file = userLayers[n - 1].file
            guard file.data.longestLine != nil else {
                setMessage("\(file.displayName) has no line to profile")
                return []
            }
            profileFile = n - 1
            setMessage("elevation profile of \(file.displayName)'s longest line")
            return []
        }
        toggleUserLayer(n - 1)
        let layer = userLayers[n - 1]
        setMessage("\(layer.file.displayName) " + (layer.visible ? "shown" : "hidden"))
        return []
    }

    /// A key with the bookmark list open: a digit goes to that bookmark (or, after `d`, deletes it);
    /// `d` arms the deletion; anything else closes the list.
    mutating func bookmarkListKey(_ key: Key) -> [Effect] {
        guard var list = bookmarks else { return [] }
        if key == .char("d") {
            deletingBookmark = true
            setMessage("delete which bookmark? (1–9)")
            return []
        }
        defer { deletingBookmark = false }
        guard case .char(let c) = key, let n = c.wholeNumberValue, n >= 1, n <= min(9, list.bookmarks.count) else {
            showBookmarks = false
            return []
        }
        let b = list.bookmarks[n - 1]
        if deletingBookmark {
            list.delete(n - 1)
            bookmarks = list
            setMessage("bookmark '\(b.name)' deleted")
            return [.changeBookmarks(.delete(name: b.name))]
        }
        showBookmarks = false
        goTo(b.coordinate, zoom: b.zoom, label: b.name)
        return []
    }

    /// What `y` then `n` copies: the view as an openstreetmap.org link (1), the centre as a geo: URI
    /// (2) or as coordinates (3); nil for another digit.
    func copyText(_ n: Int) -> String? {
        let c = view.center
        switch n {
        case 1: return LocationLinks.openStreetMap(center: c, zoom: view.zoom)
        case 2: return LocationLinks.geoURI(c)
        case 3:
            let wrapped = Coordinate(latitude: c.latitude, longitude: WebMercator.wrapLongitude(c.longitude))
            return "\(CoordinateFormat.fixed(wrapped.latitude, 6)), \(CoordinateFormat.fixed(wrapped.longitude, 6))"
        default: return nil
        }
    }
}
