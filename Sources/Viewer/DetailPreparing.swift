import Dispatch
import MapData
import MapRender
import Synchronization

/// Makes the levels of detail of the user's files that views lack (as `TileLoading` loads tiles), in
/// the background, so that a key never waits for a million points to be simplified (a script has none:
/// its frames make their levels as they draw). It tells the loop when a level is made.
public protocol DetailPreparing: AnyObject, Sendable {
    /// Starts making `request`'s level (nothing when it is made or being made).
    func request(_ request: DetailRequest)
}

/// Makes levels on a thread of its own, one at a time, the newest request first (the view the user
/// looks at now), then tells `prepared` from that thread.
public final class BackgroundDetailPreparer: DetailPreparing {
    private let prepared: @Sendable (DetailRequest) -> Void
    private let queue = DispatchQueue(label: "termmap.detail", qos: .utility)
    private let work = Mutex<(wanted: [DetailRequest], running: Bool)>(([], false))

    /// A preparer telling `prepared` of each level made.
    public init(prepared: @escaping @Sendable (DetailRequest) -> Void) { self.prepared = prepared }

    public func request(_ request: DetailRequest) {
        guard request.file.readyLevel(request.level) == nil else { return }
        let start = work.withLock { w in
            w.wanted.removeAll { $0 == request }
            w.wanted.append(request)
            defer { w.running = true }
            return !w.running
        }
        if start { queue.async { [self] in run() } }
    }

    private func run() {
        while true {
            let next: DetailRequest? = work.withLock { w in
                guard let last = w.wanted.popLast() else {
                    w.running = false
                    return nil
                }
                return last
            }
            guard let next else { return }
            if next.file.prepare(next.level) { prepared(next) }
        }
    }
}
