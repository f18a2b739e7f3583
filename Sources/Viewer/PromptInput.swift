import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapRender
import Support

/// The prompts on the message line (`z`, `r`, `g`, `/`, a bookmark's name): editing, choices, submitting.
extension ViewerState {
    mutating func handlePromptKey(_ key: Key, places: PlaceSearching?) {
        guard var edited = prompt else { return }
        switch key {
        case .escape, .ctrlC:
            prompt = nil
            setMessage("cancelled")
        case .backspace:
            if !edited.text.isEmpty { edited.text.removeLast() }
            prompt = withChoices(edited, places: places)
        case .up, .down:
            // ↑/↓ choose among a search's matches.
            guard !edited.choices.isEmpty else { return }
            let step = key == .up ? -1 : 1
            edited.chosen = (edited.chosen + step + edited.choices.count) % edited.choices.count
            prompt = edited
        case .enter:
            prompt = nil
            if edited.kind == .search, edited.chosen < edited.choices.count {
                frame(edited.choices[edited.chosen])
            } else {
                submit(edited, places: places)
            }
        case .char(let c):
            // Keep printable characters only; a long paste is cut (and then refused when submitted).
            // Past the cap nothing changes: no search again (a 20,000-character paste cost 18 s so).
            guard edited.text.utf8.count <= Prompt.maxLength * 4, edited.text.count <= Prompt.maxLength,
                c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
            else { return }
            // What matched nothing matches nothing longer: a paste that has stopped matching searches no more.
            let stillNothing =
                edited.kind == .search && edited.choices.isEmpty
                && MapSources.longerQueriesMatchNoMore(than: edited.text)
            edited.text.append(c)
            prompt = stillNothing ? edited : withChoices(edited, places: places)
        default:
            break
        }
    }

    /// A search prompt with the matches of its text (the first chosen), asked from this view; other
    /// prompts as they are.
    func withChoices(_ prompt: Prompt, places: PlaceSearching?) -> Prompt {
        guard prompt.kind == .search else { return prompt }
        var p = prompt
        let query = p.text.trimmedOfWhitespace
        p.choices = query.isEmpty ? [] : places?.matches(query, limit: Prompt.maxChoices, near: searchVicinity) ?? []
        p.chosen = 0
        return p
    }

    /// Where this view's searches are asked from: its centre, and its half diagonal as what is near.
    var searchVicinity: SearchVicinity {
        let m = view.extentMeters()
        return SearchVicinity(
            center: view.center,
            radiusMeters: (m.longitudinal * m.longitudinal + m.latitudinal * m.latitudinal).squareRoot() / 2)
    }

    mutating func submit(_ submitted: Prompt, places: PlaceSearching?) {
        if submitted.text.count > Prompt.maxLength {
            setError("input too long (at most \(Prompt.maxLength) characters); view unchanged")
            return
        }
        switch submitted.kind {
        case .zoomLevel:
            switch InputParsing.zoomLevel(submitted.text) {
            case .failure(let e): setError(e.description + "; view unchanged")
            case .success(let z): setZoomLevel(z)
            }
        case .radius:
            switch InputParsing.radius(submitted.text) {
            case .failure(let e): setError(e.description + "; circle unchanged")
            case .success(let meters):
                turnCircleOn(radius: meters, at: circle?.circle.center ?? view.center)
            }
        case .reachMinutes: reachMinutes(submitted.text, places: places)
        case .bookmarkName:
            let name = submitted.text.trimmedOfWhitespace
            guard !name.isEmpty, var list = bookmarks else {
                setError("a bookmark needs a name; nothing kept")
                return
            }
            let saved = list.save(Bookmark(name: name, coordinate: view.center, zoom: view.zoom))
            bookmarks = list
            setMessage("bookmark '\(name)' kept (\(list.bookmarks.count) in all; ' lists them)")
            pendingEffects.append(.changeBookmarks(.save(saved)))
        case .goTo:
            switch InputParsing.place(submitted.text) {
            case .success(let p):
                goTo(p.coordinate, zoom: p.zoom, label: CoordinateFormat.hemispheres(p.coordinate, decimals: 5))
            case .failure(let e):
                // Not a position nor a link: a place's name, as `--center` takes it (the first match `/`
                // lists); the position's own error when nothing is called that.
                let name = submitted.text.trimmedOfWhitespace
                if name.contains(where: \.isLetter), let hit = places?.search(name, near: searchVicinity) {
                    frame(hit)
                } else {
                    setError(e.description + "; view unchanged")
                }
            }
        case .search:
            let query = submitted.text.trimmedOfWhitespace
            guard !query.isEmpty else {
                setError("type a place or street name")
                return
            }
            guard let places else {
                setError("no gazetteer loaded")
                return
            }
            guard let hit = places.search(query, near: searchVicinity) else {
                setError("no place or street is called '\(query)'")
                return
            }
            frame(hit)
        }
    }

    /// `z`: seed 000's setCenter(_:zoomLevel:) in the standard convention; above 28 clamps and says so.
    mutating func setZoomLevel(_ z: Double) {
        let old = view
        do {
            let outcome = try view.setCenter(view.center, zoomLevel: z)
            commit(from: old, change: "zoom level")
            // The category takes a whole level (NSUInteger), 0…28.
            let seedLevel = UInt(min(28, max(0, z.rounded(.down))))
            let seedSpan = SeedZoomLevelCategory.region(for: view.size, center: view.center, zoomLevel: seedLevel).span
            lastAction = LastAction(
                name: .setZoom, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false,
                zoomLevel: ZoomLevelStep(
                    requested: z, standardLongitudeDelta: view.region.span.longitudeDelta,
                    seedLongitudeDelta: seedSpan.longitudeDelta,
                    seedEquivalentZoom: log2(
                        view.size.widthDots * 360 / (WebMercator.tileSize * seedSpan.longitudeDelta))))
            var text = "zoom level: \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))"
            if outcome.wasClamped { text += " (\(CoordinateFormat.fixed(z, 2)) clamped to 28)" }
            setMessage(text)
        } catch {
            setError(error.description + "; view unchanged")
        }
    }
}
