import CExpat
import Glibc

/// What an XML reader is told, element by element (names without their namespace prefix).
protocol XMLHandler: AnyObject {
    /// True for an element whose text the handler wants at its end (`name`, `coordinates`).
    func collectsText(_ name: String) -> Bool
    func start(_ name: String, attributes: XMLAttributes)
    /// An element ends; `text` is all of its text when it collects text: its character data, and its
    /// child elements written back as markup (`Some<br/>HTML<br/>content`: a description's HTML left
    /// unescaped is kept, not cut at its last child), else empty.
    func end(_ name: String, text: String)
}

/// An element's attributes as expat gives them, read in place (no dictionary a element): valid only
/// during the `start` call it is given to. Names are compared by their local part (`gx:id` is `id`);
/// of two with one local name, the later is read, as a dictionary by local name would keep it.
struct XMLAttributes {
    let pairs: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?

    /// The value of attribute `name`, nil when it has none.
    func value(_ name: String) -> String? { raw(name).map { String(cString: $0) } }

    /// Attribute `name` read as a number, as `Double(value.trimmedOfWhiteSpace)` reads it: decimal
    /// text straight from its bytes (exactly rounded), anything else through the string.
    func number(_ name: String) -> Double? {
        guard let value = raw(name) else { return nil }
        let length = strlen(value)
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            XMLText.number(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The C string of attribute `name`'s value.
    private func raw(_ name: String) -> UnsafePointer<XML_Char>? {
        guard var a = pairs else { return nil }
        var found: UnsafePointer<XML_Char>?
        var wanted = name
        wanted.withUTF8 { want in
            while let key = a.pointee, let value = a.advanced(by: 1).pointee {
                if XMLText.localName(key, equals: want) { found = value }
                a = a.advanced(by: 2)
            }
        }
        return found
    }
}

/// Text of XML read from its bytes: names, numbers and trims without a `Character` each.
enum XMLText {
    /// True when the local part of C string `name` (after its last `:`) is `want`'s bytes.
    static func localName(_ name: UnsafePointer<XML_Char>, equals want: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = strlen(name)
        return name.withMemoryRebound(to: UInt8.self, capacity: length) { p in
            var start = 0
            for i in 0..<length where p[i] == UInt8(ascii: ":") { start = i + 1 }
            guard length - start == want.count, let w = want.baseAddress else { return false }
            return memcmp(p + start, w, want.count) == 0
        }
    }

    /// True when every byte is ASCII.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { !bytes.contains { $0 >= 0x80 } }

    /// XML's white space (the `S` production: space, tab, CR, LF).
    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// `bytes` read as a number as `Double(String(bytes).trimmedOfWhiteSpace)` reads them: a JSON-form
    /// decimal between XML white space straight from the bytes, else through the string (a leading
    /// zero, `+1`, `inf`, other white space).
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var (from, to) = (0, bytes.count)
        while from < to, isSpace(bytes[from]) { from += 1 }
        while to > from, isSpace(bytes[to - 1]) { to -= 1 }
        if from < to {
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: bytes[from..<to]))
            if let n = try? scanner.number(), n.text.upperBound == to - from { return n.value }
        }
        return Double(String(decoding: bytes, as: UTF8.self).trimmedOfWhiteSpace)
    }

    /// `text` read as a number, as `number(_:)` reads bytes.
    static func number(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { number($0) }
    }

    /// `text` without white space at either end: itself when it begins and ends with a visible ASCII
    /// character (no `Character` looked at), else trimmed of every white space as `trimmedOfWhiteSpace`.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return text
        }
        return text.trimmedOfWhiteSpace
    }
}

/// Runs Debian's expat over a document for a handler. Safe on hostile files: any entity declaration
/// ends the parse (GPX and KML need none, so no entity is ever expanded, internal or external),
/// external entities are never loaded (no handler for them), and errors come back as one line with
/// the line and column expat stopped at.
enum XMLEvents {
    /// Why a document was refused: where and what.
    struct Failure: Error {
        var line: Int
        var column: Int
        var message: String
    }

    private final class Context {
        let handler: any XMLHandler
        var refused: String?
        var parser: XML_Parser?
        /// The open elements: whether each collects text (its own, or a collecting one's child), and the
        /// text so far.
        // (The state of a parse is touched only by expat's callbacks, one at a time on the parsing
        // thread: no access can overlap another, and `@exclusivity(unchecked)` spares each element the
        // run-time check, 15 % of a GPX read.)
        @exclusivity(unchecked) var open: [(collects: Bool, text: String)] = []
        /// Element names met, by their local part's bytes (up to 16 of them): a name is made once, not
        /// once an element. An open-addressed table of 64 slots (a document has a few dozen names; one
        /// with more makes the rest each time).
        @exclusivity(unchecked) private var names = [(key: NameKey, name: String)?](repeating: nil, count: 64)

        init(_ handler: any XMLHandler) { self.handler = handler }

        /// Up to 16 bytes of a name, and its length.
        struct NameKey: Equatable {
            var head: UInt64 = 0
            var tail: UInt64 = 0
            var count = 0
        }

        /// The local part of C string `name` (after its last `:`), made once per distinct name.
        func name(_ name: UnsafePointer<XML_Char>) -> String {
            name.withMemoryRebound(to: UInt8.self, capacity: 1) { p in
                var key = NameKey()
                var start = 0
                var i = 0
                while p[i] != 0 {
                    let b = p[i]
                    if b == UInt8(ascii: ":") {
                        key = NameKey()
                        start = i + 1
                    } else {
                        let k = key.count
                        if k < 8 {
                            key.head |= UInt64(b) << (8 * UInt64(k))
                        } else if k < 16 {
                            key.tail |= UInt64(b) << (8 * UInt64(k - 8))
                        }
                        key.count += 1
                    }
                    i += 1
                }
                let local = UnsafeBufferPointer(start: p + start, count: i - start)
                guard key.count <= 16 else { return String(decoding: local, as: UTF8.self) }
                // Fibonacci hashing of the bytes to a slot, then the next slots.
                let mixed = (key.head ^ (key.tail &* 31) ^ UInt64(key.count)) &* 0x9E37_79B9_7F4A_7C15
                var slot = Int(truncatingIfNeeded: mixed >> 58)
                for _ in 0..<names.count {
                    guard let entry = names[slot] else {
                        let made = String(decoding: local, as: UTF8.self)
                        names[slot] = (key, made)
                        return made
                    }
                    if entry.key == key { return entry.name }
                    slot = (slot + 1) & (names.count - 1)
                }
                return String(decoding: local, as: UTF8.self)
            }
        }

        func start(_ name: String, _ attributes: XMLAttributes) {
            let collects = open.last?.collects == true || handler.collectsText(name)
            open.append((collects, ""))
            handler.start(name, attributes: attributes)
        }

        func end(_ name: String) {
            guard let element = open.popLast() else { return }
            handler.end(name, text: element.text)
            // Inside an element that collects, a child is its markup and text.
            if let parent = open.last, parent.collects {
                open[open.count - 1].text +=
                    element.text.isEmpty ? "<\(name)/>" : "<\(name)>" + element.text + "</\(name)>"
            }
        }

        /// Text is made a string only inside an element that collects it.
        var collecting: Bool { open.last?.collects == true }

        func text(_ t: String) {
            if collecting { open[open.count - 1].text += t }
        }
    }

    /// Windows-1252's characters 0x80–0x9F (the WHATWG Encoding Standard's index; 0 where it has none):
    /// what a GPX or KML written on Windows declares and expat does not know itself (it knows UTF-8,
    /// UTF-16, ISO-8859-1 and US-ASCII).
    static let windows1252: [Int32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E,
        0x0178,
    ]

    /// Parses `bytes`, calling `handler` for each element and its text. The document's own encoding
    /// decides (its declaration or byte order mark; UTF-8 without either), Windows-1252 included.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, handler: any XMLHandler, progress: ReadProgress? = nil)
        throws(Failure)
    {
        guard let parser = XML_ParserCreate(nil) else {
            throw Failure(line: 1, column: 1, message: "cannot start the XML reader")
        }
        defer { XML_ParserFree(parser) }
        acceptWindows1252(parser)
        let context = Context(handler)
        context.parser = parser
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        XML_SetUserData(parser, pointer)
        setHandlers(parser)
        let status = feed(parser, bytes, progress: progress)
        if status != XML_STATUS_OK {
            let line = Int(XML_GetCurrentLineNumber(parser))
            let column = Int(XML_GetCurrentColumnNumber(parser)) + 1
            let message =
                context.refused ?? XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) }
                ?? "invalid XML"
            throw Failure(line: line, column: column, message: message)
        }
    }

    /// Lets expat read a document declared Windows-1252 (it knows only UTF-8, UTF-16, ISO-8859-1 and
    /// US-ASCII itself).
    static func acceptWindows1252(_ parser: XML_Parser) {
        XML_SetUnknownEncodingHandler(
            parser,
            { _, name, info in
                guard let name, let info else { return Int32(XML_STATUS_ERROR.rawValue) }
                let n = String(cString: name).lowercased()
                guard ["windows-1252", "cp1252", "x-cp1252"].contains(n) else {
                    return Int32(XML_STATUS_ERROR.rawValue)
                }
                withUnsafeMutableBytes(of: &info.pointee.map) { raw in
                    let map = raw.bindMemory(to: Int32.self)
                    for b in 0..<256 {
                        // A byte Windows-1252 leaves undefined is refused (-1), as expat refuses bad bytes.
                        map[b] =
                            b >= 0x80 && b < 0xA0
                            ? (XMLEvents.windows1252[b - 0x80] == 0 ? -1 : XMLEvents.windows1252[b - 0x80]) : Int32(b)
                    }
                }
                info.pointee.data = nil
                info.pointee.convert = nil
                info.pointee.release = nil
                return Int32(XML_STATUS_OK.rawValue)
            }, nil)
    }

    /// The element, text and entity handlers: each element with its attributes by local name, its text,
    /// and an entity declaration refused (entities are never expanded).
    static func setHandlers(_ parser: XML_Parser) {
        XML_SetElementHandler(
            parser,
            { data, name, attributes in
                guard let data, let name else { return }
                let c = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
                c.start(c.name(name), XMLAttributes(pairs: attributes))
            },
            { data, name in
                guard let data, let name else { return }
                let c = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
                c.end(c.name(name))
            })
        XML_SetCharacterDataHandler(parser) { data, text, length in
            guard let data, let text, length > 0 else { return }
            let c = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
            // The white space between elements nobody reads is never made a string.
            guard c.collecting else { return }
            let s = text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
            }
            c.text(s)
        }
        XML_SetEntityDeclHandler(parser) { data, name, _, _, _, _, _, _, _ in
            guard let data else { return }
            let c = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
            c.refused = "an entity declaration (\(name.map { String(cString: $0) } ?? "?")): entities are not read"
            XML_StopParser(c.parser, XML_FALSE)
        }
    }

    /// Feeds the bytes to expat in pieces of 1 MB (it takes an Int32 length), telling `progress`.
    static func feed(_ parser: XML_Parser, _ bytes: UnsafeBufferPointer<UInt8>, progress: ReadProgress?) -> XML_Status {
        var status = XML_STATUS_OK
        let b = bytes
        if let base = b.baseAddress {
            base.withMemoryRebound(to: CChar.self, capacity: b.count) { chars in
                var at = 0
                repeat {
                    let n = min(1 << 20, b.count - at)
                    status = XML_Parse(parser, chars + at, Int32(n), at + n == b.count ? 1 : 0)
                    at += n
                    progress?(Double(at) / Double(b.count))
                } while status == XML_STATUS_OK && at < b.count
            }
        } else {
            status = XML_Parse(parser, nil, 0, 1)
        }
        return status
    }

    /// Parses `file`'s `bytes` for `handler`; a failure is the file's one line with its line and column.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, handler: any XMLHandler, progress: ReadProgress?
    ) throws(MapDataError) {
        do {
            try parse(bytes, handler: handler, progress: progress)
        } catch {
            throw MapDataError(file: file, .syntax(line: error.line, column: error.column, error.message))
        }
    }
}
