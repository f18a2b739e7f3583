import CExpat

/// What an XML reader is told, element by element (names without their namespace prefix).
protocol XMLHandler: AnyObject {
    func start(_ name: String, attributes: [String: String])
    func end(_ name: String)
    func text(_ text: String)
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
        init(_ handler: any XMLHandler) { self.handler = handler }
    }

    /// Parses `bytes`, calling `handler` for each element and its text.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, handler: any XMLHandler, progress: ReadProgress? = nil) throws(Failure) {
        guard let parser = XML_ParserCreate("UTF-8") else { throw Failure(line: 1, column: 1, message: "cannot start the XML reader") }
        defer { XML_ParserFree(parser) }
        let context = Context(handler)
        context.parser = parser
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        XML_SetUserData(parser, pointer)
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
                c.handler.start(XMLEvents.localName(String(cString: name)), attributes: attrs)
            },
            { data, name in
                guard let data, let name else { return }
                Unmanaged<Context>.fromOpaque(data).takeUnretainedValue().handler.end(XMLEvents.localName(String(cString: name)))
            })
        XML_SetCharacterDataHandler(parser) { data, text, length in
            guard let data, let text, length > 0 else { return }
            let s = text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
            }
            Unmanaged<Context>.fromOpaque(data).takeUnretainedValue().handler.text(s)
        }
        XML_SetEntityDeclHandler(parser) { data, name, _, _, _, _, _, _, _ in
            guard let data else { return }
            let c = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
            c.refused = "an entity declaration (\(name.map { String(cString: $0) } ?? "?")): entities are not read"
            XML_StopParser(c.parser, XML_FALSE)
        }
        // In pieces of 1 MB (expat takes an Int32 length).
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
        if status != XML_STATUS_OK {
            let line = Int(XML_GetCurrentLineNumber(parser))
            let column = Int(XML_GetCurrentColumnNumber(parser)) + 1
            let message = context.refused ?? XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "invalid XML"
            throw Failure(line: line, column: column, message: message)
        }
    }

    /// Parses `file`'s `bytes` for `handler`; a failure is the file's one line with its line and column.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, handler: any XMLHandler, progress: ReadProgress?) throws(MapDataError) {
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
