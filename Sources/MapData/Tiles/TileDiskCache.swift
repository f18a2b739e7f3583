import CSQLite
import Dispatch
import FoundationEssentials
import Glibc
import MapFormats
import Support
import SystemSupport

/// What a remote source sent, kept on disk: one MBTiles-shaped SQLite file a source (its `tiles`
/// table, TMS rows, plus each tile's `ETag`, `Last-Modified`, expiry and last use, and a `resources`
/// table for a TileJSON document or a PMTiles header and directories), all of a folder's files
/// together bounded in bytes, least recently used first out.
///
/// Many processes share the files (a kiosk account's sessions): WAL mode (readers never wait for a
/// writer), a busy timeout, schema creation that retries. Writes go to a queue of their own, several
/// to a transaction, and a write that fails is dropped: the cache never fails a draw. Last uses are
/// written in batches, never one write a hit. A file SQLite calls corrupt or not a database is set
/// aside (under a lock, so that one process does it) and a new one started.
public final class TileDiskCache: @unchecked Sendable {
    // @unchecked: `reader`, `pending`, `touched` and `notices` are used only under `lock`; `writer`
    // only on the `writes` queue.

    /// A tile or resource as kept: its bytes (nil: the server has no such tile) and how long it holds.
    public struct Entry: Sendable, Equatable {
        public var body: [UInt8]?
        public var etag: String
        public var lastModified: String
        /// Unix seconds after which it must be revalidated.
        public var expires: Int64
        public init(body: [UInt8]?, etag: String = "", lastModified: String = "", expires: Int64) {
            (self.body, self.etag, self.lastModified, self.expires) = (body, etag, lastModified, expires)
        }
        /// True while it may be used without asking the server.
        public func isFresh(now: Int64) -> Bool { expires > now }
    }

    /// A key: a tile (z, x, TMS row) or a resource's name.
    enum Key: Hashable {
        case tile(z: Int, x: Int, row: Int)
        case resource(String)
    }

    /// The default bound of all cache files together (`--tile-cache-disk`).
    public static let defaultLimitBytes = 512 << 20
    /// The file.
    public let path: String
    /// Its folder (every file in it counts against the bound).
    public let folder: String
    /// The location the user gave (the file's `name`).
    public let source: String
    private let limitBytes: Int
    private let lock = Lock()
    private var reader: OpaquePointer?
    private let writes = DispatchQueue(label: "termmap.cache.write")
    private var writer: OpaquePointer?
    private var pending: [(Key, Entry)] = []
    private var touched: Set<Key> = []
    private var notices: [String] = []
    private var writtenSinceTrim = 0
    /// Hits kept before their last use is written.
    static let touchBatch = 64
    /// Bytes written between checks of the folder's size (a sixteenth of the bound, at most 1 MB).
    var trimEvery: Int { min(1 << 20, max(16 << 10, limitBytes / 16)) }

    /// `$XDG_CACHE_HOME/termmap`, else `~/.cache/termmap` (XDG Base Directory Specification 0.8: a
    /// relative `XDG_CACHE_HOME` is ignored).
    public static func folder(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/termmap" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeDirectoryFromPasswordDatabase()
        return home + "/.cache/termmap"
    }

    /// The file name of a source's cache: its host and a hash of the location the user gave.
    static func fileName(source: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        for b in source.utf8 {
            hash ^= UInt64(b)
            hash = hash &* 0x100_0000_01b3
        }
        let host = HTTPPool.hostKey(source).split(separator: "/").last.map(String.init) ?? "local"
        let safe = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(64))
        let hex = String(hash, radix: 16)
        return "\(safe)-\(String(repeating: "0", count: 16 - hex.count) + hex).mbtiles"
    }

    /// The cache of `source` (the location the user gave) in `folder`, created when new; nil (with the
    /// reason) when the folder cannot hold one: the source is then read without a cache.
    public static func open(source: String, folder: String, limitBytes: Int = defaultLimitBytes) -> (
        TileDiskCache?, String?
    ) {
        guard makeFolders(folder) else {
            return (nil, "tile cache \(folder): \(systemErrorReason()); tiles are not kept")
        }
        let cache = TileDiskCache(
            path: folder + "/" + fileName(source: source), folder: folder, source: source, limitBytes: limitBytes)
        if let why = cache.connect() { return (nil, "tile cache \(cache.path): \(why); tiles are not kept") }
        // Within the bound from the start (a smaller --tile-cache-disk than last time, or another
        // process's writes), in the background.
        cache.writes.async { cache.trim() }
        return (cache, nil)
    }

    private init(path: String, folder: String, source: String, limitBytes: Int) {
        self.path = path
        self.folder = folder
        self.source = source
        self.limitBytes = limitBytes
    }

    deinit {
        // Every queued block holds the cache: none is left, and this may run on the queue itself.
        flush(touchesToo: true)
        sqlite3_close(reader)
        sqlite3_close(writer)
    }

    /// Lines to say once (a file set aside); taken.
    public func takeNotices() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        defer { notices = [] }
        return notices
    }

    // MARK: Reading

    /// A tile, when kept.
    public func tile(_ tile: TileID) -> Entry? { entry(.tile(z: tile.z, x: tile.x, row: (1 << tile.z) - 1 - tile.y)) }

    /// A resource (`tilejson`, `range 0-16383`), when kept.
    public func resource(_ name: String) -> Entry? { entry(.resource(name)) }

    private func entry(_ key: Key) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        if let queued = pending.last(where: { $0.0 == key }) { return queued.1 }
        guard let db = reader else { return nil }
        let sql: String
        switch key {
        case .tile:
            sql =
                "SELECT tile_data, etag, last_modified, expires FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?"
        case .resource: sql = "SELECT data, etag, last_modified, expires FROM resources WHERE key=?"
        }
        var found: Entry?
        let rc = Self.query(db, sql, bind: key) { s in
            let body: [UInt8]? =
                sqlite3_column_type(s, 0) == SQLITE_NULL
                ? nil
                : sqlite3_column_blob(s, 0).map {
                    [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(sqlite3_column_bytes(s, 0))))
                } ?? []
            found = Entry(
                body: body, etag: Self.text(s, 1), lastModified: Self.text(s, 2), expires: sqlite3_column_int64(s, 3))
        }
        if Self.isDamage(rc) {
            setAside()
            return nil
        }
        if found != nil {
            touched.insert(key)
            if touched.count >= Self.touchBatch { writes.async { [self] in flush() } }
        }
        return found
    }

    // MARK: Writing

    /// Keeps a tile (written soon, on the cache's own queue).
    public func put(_ tile: TileID, _ entry: Entry) {
        enqueue(.tile(z: tile.z, x: tile.x, row: (1 << tile.z) - 1 - tile.y), entry)
    }

    /// Keeps a resource.
    public func put(resource name: String, _ entry: Entry) { enqueue(.resource(name), entry) }

    /// Forgets every tile and resource (the source's file changed).
    public func removeAll() {
        lock.lock()
        pending = []
        lock.unlock()
        writes.async { [self] in
            guard let db = writer else { return }
            _ = Self.exec(db, "DELETE FROM tiles; DELETE FROM resources; PRAGMA incremental_vacuum;")
        }
    }

    private func enqueue(_ key: Key, _ entry: Entry) {
        lock.lock()
        pending.append((key, entry))
        lock.unlock()
        writes.async { [self] in flush() }
    }

    /// Removes the file when nothing was ever kept in it (a source that could not be opened).
    public func discardIfEmpty() {
        close()
        lock.lock()
        defer { lock.unlock() }
        guard let db = reader else { return }
        var rows = 0
        _ = Self.query(db, "SELECT (SELECT count(*) FROM tiles) + (SELECT count(*) FROM resources)", bind: nil) { s in
            rows = Int(sqlite3_column_int64(s, 0))
        }
        if rows == 0 { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
    }

    /// Writes what is queued and waits for it (at the end of a run).
    public func close() { writes.sync { flush(touchesToo: true) } }

    /// The queue's work: pending entries and (in batches) last uses, in one transaction.
    private func flush(touchesToo: Bool = false) {
        lock.lock()
        let batch = pending
        pending = []
        var touches: Set<Key> = []
        if touchesToo || touched.count >= Self.touchBatch || !batch.isEmpty {
            touches = touched
            touched = []
        }
        lock.unlock()
        guard !batch.isEmpty || !touches.isEmpty, let db = writer else { return }
        let now = Self.nowMilliseconds()
        var rc = Self.exec(db, "BEGIN IMMEDIATE")
        var bytes = 0
        for (key, entry) in batch where rc == SQLITE_OK || rc == SQLITE_DONE {
            bytes += (entry.body?.count ?? 0) + 64
            let sql: String
            switch key {
            case .tile:
                sql =
                    "INSERT OR REPLACE INTO tiles(zoom_level, tile_column, tile_row, tile_data, etag, last_modified, expires, used) VALUES(?,?,?,?,?,?,?,?)"
            case .resource:
                sql =
                    "INSERT OR REPLACE INTO resources(key, data, etag, last_modified, expires, used) VALUES(?,?,?,?,?,?)"
            }
            rc = Self.query(db, sql, bind: key, entry: entry, used: now) { _ in }
        }
        for key in touches where rc == SQLITE_OK || rc == SQLITE_DONE {
            switch key {
            case .tile:
                rc = Self.query(
                    db, "UPDATE tiles SET used=\(now) WHERE zoom_level=? AND tile_column=? AND tile_row=?", bind: key
                ) { _ in }
            case .resource:
                rc = Self.query(db, "UPDATE resources SET used=\(now) WHERE key=?", bind: key) { _ in }
            }
        }
        if rc == SQLITE_OK || rc == SQLITE_DONE {
            rc = Self.exec(db, "COMMIT")
        } else {
            // A failed write is dropped: what was drawn stays drawn.
            _ = Self.exec(db, "ROLLBACK")
        }
        if Self.isDamage(rc) {
            setAside()
            return
        }
        writtenSinceTrim += bytes
        if writtenSinceTrim >= trimEvery || (touchesToo && writtenSinceTrim > 0) {
            writtenSinceTrim = 0
            trim()
        }
    }

    /// When an entry was last used: milliseconds since 1970 (seconds would tie a view's tiles with the
    /// ones they replace; a cache written by seconds reads as older, and goes first).
    static func nowMilliseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) * 1000 + Int64(t.tv_nsec) / 1_000_000
    }

    // MARK: The bound

    /// The bytes of every cache file in the folder (with their write-ahead logs).
    func folderBytes() -> Int { cacheFiles().reduce(0) { $0 + (fileSize($1) ?? 0) + (fileSize($1 + "-wal") ?? 0) } }

    private func cacheFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".mbtiles") }
            .map { folder + "/" + $0 }
    }

    /// The bytes a file's rows hold (their data and 64 bytes a row), and how many rows: what deleting
    /// rows frees, whatever the file's size says before its pages are given back.
    static func bytesHeld(_ db: OpaquePointer) -> (bytes: Int, rows: Int) {
        var held = (bytes: 0, rows: 0)
        _ = query(
            db,
            """
            SELECT (SELECT coalesce(sum(length(tile_data)), 0) + 64 * count(*) FROM tiles)
              + (SELECT coalesce(sum(length(data)), 0) + 64 * count(*) FROM resources),
              (SELECT count(*) FROM tiles) + (SELECT count(*) FROM resources)
            """, bind: nil
        ) { s in held = (Int(sqlite3_column_int64(s, 0)), Int(sqlite3_column_int64(s, 1))) }
        return held
    }

    /// Deletes the least recently used entries of the folder's files (every process's) until they are
    /// within the bound: the oldest rows first, counted by what they hold, down to a target that starts
    /// at seven eighths of the bound (pages and the log take the rest) and is lowered by what the files
    /// still take past the bound after their pages are given back (a few rounds at most: a file another
    /// process holds open may not shrink at once, and its newest tiles are not deleted for that).
    func trim() {
        var target = limitBytes / 8 * 7
        for _ in 0..<4 {
            guard folderBytes() > limitBytes else { return }
            var files: [(path: String, db: OpaquePointer)] = []
            var (held, rows) = (0, 0)
            for file in cacheFiles() {
                guard let db = file == path ? writer : Self.connect(file) else { continue }
                files.append((file, db))
                let h = Self.bytesHeld(db)
                (held, rows) = (held + h.bytes, rows + h.rows)
            }
            defer { for f in files where f.path != path { sqlite3_close(f.db) } }
            var rounds = 0
            while held > target, rounds < 100_000 {
                rounds += 1
                // The file whose least recently used entry is oldest gives up to 64 of its oldest.
                var oldest: (index: Int, used: Int64)?
                for (i, f) in files.enumerated() {
                    var used: Int64?
                    _ = Self.query(
                        f.db,
                        "SELECT min(u) FROM (SELECT min(used) u FROM tiles UNION ALL SELECT min(used) FROM resources)",
                        bind: nil
                    ) { s in
                        if sqlite3_column_type(s, 0) != SQLITE_NULL { used = sqlite3_column_int64(s, 0) }
                    }
                    if let used, used < oldest?.used ?? .max { oldest = (i, used) }
                }
                guard let oldest else { break }
                let db = files[oldest.index].db
                // As many rows as the excess holds on average (at least one, at most 64): the newest
                // are not deleted for a batch's sake.
                let n = max(1, min(64, (held - target) / max(1, held / max(1, rows)) + 1))
                let tiles = "SELECT rowid FROM tiles WHERE used <= \(oldest.used) ORDER BY used, rowid LIMIT \(n)"
                let resources =
                    "SELECT rowid FROM resources WHERE used <= \(oldest.used) ORDER BY used, rowid LIMIT \(max(1, n / 4))"
                var freed = 0
                _ = Self.query(
                    db,
                    """
                    SELECT (SELECT coalesce(sum(length(tile_data)), 0) + 64 * count(*) FROM tiles WHERE rowid IN (\(tiles)))
                      + (SELECT coalesce(sum(length(data)), 0) + 64 * count(*) FROM resources WHERE rowid IN (\(resources)))
                    """, bind: nil
                ) { s in freed = Int(sqlite3_column_int64(s, 0)) }
                _ = Self.exec(
                    db,
                    "DELETE FROM tiles WHERE rowid IN (\(tiles)); DELETE FROM resources WHERE rowid IN (\(resources));")
                guard freed > 0 else { break }
                held -= freed
                rows -= n
            }
            for f in files { _ = Self.exec(f.db, "PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE);") }
            let size = folderBytes()
            guard size > limitBytes, held > 0 else { return }
            // What pages and logs take past the rows: the target comes down by as much.
            target = max(0, target - (size - limitBytes) - limitBytes / 16)
        }
    }

    // MARK: Files

    /// Opens both connections and creates the schema (retrying while another process creates it); the
    /// reason when it cannot.
    private func connect() -> String? {
        for attempt in 0..<2 {
            guard let w = Self.connect(path) else { return "cannot be opened" }
            var rc = SQLITE_BUSY
            for _ in 0..<100 {
                rc = Self.exec(
                    w,
                    """
                    PRAGMA auto_vacuum=INCREMENTAL; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
                    CREATE TABLE IF NOT EXISTS metadata(name TEXT PRIMARY KEY, value TEXT);
                    CREATE TABLE IF NOT EXISTS tiles(zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB,
                      etag TEXT, last_modified TEXT, expires INTEGER, used INTEGER, PRIMARY KEY(zoom_level, tile_column, tile_row));
                    CREATE INDEX IF NOT EXISTS tiles_used ON tiles(used);
                    CREATE TABLE IF NOT EXISTS resources(key TEXT PRIMARY KEY, data BLOB, etag TEXT, last_modified TEXT,
                      expires INTEGER, used INTEGER);
                    INSERT OR IGNORE INTO metadata VALUES('name', '\(source.replacing("'", with: "''"))'), ('format', 'pbf');
                    """)
                guard rc == SQLITE_BUSY || rc == SQLITE_LOCKED else { break }
                usleep(50_000)
            }
            if Self.isDamage(rc) && attempt == 0 {
                sqlite3_close(w)
                setAsideFile()
                continue
            }
            guard rc == SQLITE_OK || rc == SQLITE_DONE, let r = Self.connect(path) else {
                let why = String(cString: sqlite3_errmsg(w))
                sqlite3_close(w)
                return why
            }
            writer = w
            lock.lock()
            reader = r
            lock.unlock()
            return nil
        }
        return "damaged"
    }

    /// A connection with a busy timeout, nil when the file cannot be opened.
    static func connect(_ path: String) -> OpaquePointer? {
        var db: OpaquePointer?
        guard
            sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
                == SQLITE_OK,
            let db
        else {
            sqlite3_close(db)
            return nil
        }
        sqlite3_busy_timeout(db, 5_000)
        return db
    }

    /// The file was found damaged while in use: set it aside and start anew (both connections).
    private func setAside() {
        writes.async { [self] in
            lock.lock()
            let r = reader
            reader = nil
            lock.unlock()
            sqlite3_close(r)
            sqlite3_close(writer)
            writer = nil
            setAsideFile()
            _ = connect()
        }
    }

    /// Renames a damaged file to `….corrupt` under the folder's lock, unless another process has
    /// already done so (the file at the path then opens and reads).
    private func setAsideFile() {
        let lockFD = Glibc.open(folder + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        if lockFD >= 0 { flock(lockFD, LOCK_EX) }
        defer {
            if lockFD >= 0 {
                flock(lockFD, LOCK_UN)
                Glibc.close(lockFD)
            }
        }
        if let db = Self.connect(path) {
            let rc = Self.query(db, "SELECT count(*) FROM sqlite_master", bind: nil) { _ in }
            sqlite3_close(db)
            if !Self.isDamage(rc) { return }
        }
        rename(path, path + ".corrupt")
        unlink(path + "-wal")
        unlink(path + "-shm")
        let line = "tile cache \(path) is damaged: set aside as \(path).corrupt, a new one started"
        lock.lock()
        notices.append(line)
        lock.unlock()
    }

    /// Makes a folder and its parents (0700: a cache is the user's own).
    static func makeFolders(_ path: String) -> Bool {
        if isDirectory(path) { return true }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty, !isDirectory(parent), !makeFolders(parent) { return false }
        return mkdir(path, 0o700) == 0 || errno == EEXIST
    }

    // MARK: SQLite

    /// True for the codes of a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB; extended codes too).
    static func isDamage(_ rc: Int32) -> Bool { rc & 0xff == SQLITE_CORRUPT || rc & 0xff == SQLITE_NOTADB }

    static func exec(_ db: OpaquePointer, _ sql: String) -> Int32 { sqlite3_exec(db, sql, nil, nil, nil) }

    static func text(_ s: OpaquePointer, _ column: Int32) -> String {
        sqlite3_column_text(s, column).map { String(cString: $0) } ?? ""
    }

    /// Runs one statement with a key's (and an entry's) values bound, calling `row` for each result
    /// row; the last result code.
    static func query(
        _ db: OpaquePointer, _ sql: String, bind key: Key?, entry: Entry? = nil, used: Int64 = 0,
        row: (OpaquePointer) -> Void
    ) -> Int32 {
        var statement: OpaquePointer?
        var rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let s = statement else { return rc }
        defer { sqlite3_finalize(s) }
        // SQLITE_TRANSIENT: SQLite copies the bytes.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var next: Int32 = 1
        switch key {
        case .tile(let z, let x, let r)?:
            sqlite3_bind_int64(s, 1, Int64(z))
            sqlite3_bind_int64(s, 2, Int64(x))
            sqlite3_bind_int64(s, 3, Int64(r))
            next = 4
        case .resource(let name)?:
            sqlite3_bind_text(s, 1, name, -1, transient)
            next = 2
        case nil:
            break
        }
        if let entry {
            if let body = entry.body {
                body.withUnsafeBytes {
                    _ = sqlite3_bind_blob(
                        s, next, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), transient)
                }
            } else {
                sqlite3_bind_null(s, next)
            }
            sqlite3_bind_text(s, next + 1, entry.etag, -1, transient)
            sqlite3_bind_text(s, next + 2, entry.lastModified, -1, transient)
            sqlite3_bind_int64(s, next + 3, entry.expires)
            sqlite3_bind_int64(s, next + 4, used)
        }
        repeat {
            rc = sqlite3_step(s)
            if rc == SQLITE_ROW { row(s) }
        } while rc == SQLITE_ROW
        return rc
    }
}
