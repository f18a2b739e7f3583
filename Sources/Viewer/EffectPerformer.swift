import MapData

/// Carries out the effects an update returns, for the event loop: each effect is one case here, so a
/// new effect is a new case of `Effect` and a line in `perform`, not an edit of the loop.
struct EffectPerformer {
    /// What the loop itself must do after an effect.
    enum Outcome: Equatable {
        case done
        case quit
        case repaint
        /// The program was stopped and continued: the screen is blank.
        case resumed
    }

    let screen: Screen
    let loader: TileLoading?
    let preparer: DetailPreparing?
    let changeBookmarks: (BookmarkChange) -> Void
    var recordTrack: (Bool) -> Void = { _ in }

    /// True when tiles are loaded (a script's screen then loads a frame's tiles before drawing it).
    var loadsTiles: Bool { loader != nil }

    /// Carries out `effect`; loads and preparations go to their threads, which answer through the inbox.
    func perform(_ effect: Effect) -> Outcome {
        switch effect {
        case .quit: return .quit
        case .repaint: return .repaint
        case .load(let batch): loader?.request(batch)
        case .prepare(let request): preparer?.request(request)
        case .copy(let text): screen.copyToClipboard(text)
        case .changeBookmarks(let change): changeBookmarks(change)
        case .captureMouse(let on): screen.captureMouse(on)
        case .recordTrack(let on): recordTrack(on)
        case .suspend:
            screen.suspend()
            return .resumed
        }
        return .done
    }
}
