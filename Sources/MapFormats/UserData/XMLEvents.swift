import CExpat

/// What an XML reader is told, element by element (names without their namespace prefix).
protocol XMLHandler: AnyObject {
    /// True for an element whose text the handler wants at its end (`name`, `coordinates`).
    func collectsText(_ name: String) -> Bool
    func start(_ name: String, attributes: [String: String])
    /// An element ends; `text` is all of its text when it collects text: its character data, and its
    /// child elements written back as markup (`Some<br/>HTML<br/>content`: a description's HTML left
    /// unescaped is kept, not cut at its last child), else empty.
    func end(_ name: String, text: String)
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
        var open: [(collects: Bool, text: String)] = []
        init(_ handler: any XMLHandler) { self.handler = handler }

        func start(_ name: String, _ attributes: [String: String]) {
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

        func text(_ t: String) {
            if let last = open.last, last.collects { open[open.count - 1].text += t }
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
                var attrs: [String: String] = [:]
                if var a = attributes {
                    while let key = a.pointee, let value = a.advanced(by: 1).pointee {
                        attrs[XMLEvents.localName(String(cString: key))] = String(cString: value)
                        a = a.advanced(by: 2)
                    }
                }
                c.start(XMLEvents.localName(String(cString: name)), attrs)
            },
            { data, name in
                guard let data, let name else { return }
                Unmanaged<Context>.fromOpaque(data).takeUnretainedValue().end(
                    XMLEvents.localName(String(cString: name)))
            })
        XML_SetCharacterDataHandler(parser) { data, text, length in
            guard let data, let text, length > 0 else { return }
            let s = text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
            }
            Unmanaged<Context>.fromOpaque(data).takeUnretainedValue().text(s)
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

    /// `gx:Track` → `Track`.
    static func localName(_ name: String) -> String {
        name.split(separator: ":", maxSplits: 1).last.map(String.init) ?? name
    }
}
