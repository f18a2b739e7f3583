/// What a terminal that draws kitty's pictures holds of the imagery, and the sequences that bring it to
/// a new view (issue 47): each chunk of the picture (`MapPicture.chunks`) is an image the terminal
/// keeps; a view places the chunks it shows (`a=p`, one placement each, moved by placing it again) and
/// sends only the chunks the terminal does not hold yet. A pan by whole cells sends placements, a
/// few dozen bytes each, and the chunks that came into view.
public struct KittyPlacements {
    /// Where a chunk's image is placed: cell, and the part of it shown (pixels).
    struct Placement: Equatable {
        var col, row, x, y, width, height, cols, rows: Int
    }

    /// The images the terminal holds, by chunk key, with when each was last shown (to let go of the
    /// longest unshown first).
    private var held: [Int: (id: Int, shown: Int)] = [:]
    /// A placement: its image and its number (one world chunk may be shown twice at once, at the
    /// smallest zooms, where the view is wider than the world).
    struct Slot: Hashable {
        var id: Int, number: Int
    }
    /// The placements now, and where.
    private var placed: [Slot: Placement] = [:]
    private var nextID: Int
    private var frame = 0
    /// The most images kept: 512 chunks of 64 × 64 pixels, 8 MiB in the terminal.
    public let limit: Int
    /// Packs a chunk's RGBA rows (zlib, RFC 1950), nil to send them as they are.
    private let pack: @Sendable ([UInt8]) -> [UInt8]?

    /// Nothing held yet; ids from `firstID` on.
    public init(firstID: Int = 1000, limit: Int = 512, pack: @escaping @Sendable ([UInt8]) -> [UInt8]?) {
        (nextID, self.limit, self.pack) = (firstID, limit, pack)
    }

    /// The sequences that show `picture` over the view's `cols` × `rows` cells (nil: no picture, every
    /// placement taken away). Each placement goes to its cell with a cursor position (`CSI row;col H`):
    /// the caller's cursor is left where the last one put it.
    public mutating func update(_ picture: MapPicture?, cols: Int, rows: Int) -> [UInt8] {
        frame += 1
        var out: [UInt8] = []
        var now: [Slot: Placement] = [:]
        for chunk in picture?.chunks(cols: cols, rows: rows) ?? [] where !chunk.isEmpty {
            let id: Int
            if let known = held[chunk.key] {
                id = known.id
            } else {
                id = nextID
                nextID = nextID >= 0x7FFF_FFF0 ? 1000 : nextID + 1
                out += transmit(chunk, id: id)
            }
            held[chunk.key] = (id, frame)
            let p = Self.placement(chunk, cols: cols, rows: rows)
            var slot = Slot(id: id, number: 1)
            while now[slot] != nil { slot.number += 1 }
            now[slot] = p
            if placed[slot] != p { out += place(slot, p) }
        }
        for slot in placed.keys where now[slot] == nil {
            out += Array("\u{1B}_Ga=d,d=i,i=\(slot.id),p=\(slot.number),q=2\u{1B}\\".utf8)
        }
        placed = now
        out += evict()
        return out
    }

    /// The terminal lost what it showed (a cleared screen, a new size): forget every placement, and
    /// the images with them (sent again as views need them).
    public mutating func forget() -> [UInt8] {
        // Each image by its id (`d=A` frees only the images placed on screen; a held image not placed
        // now would be left behind).
        let out = held.values.flatMap { Array("\u{1B}_Ga=d,d=I,i=\($0.id),q=2\u{1B}\\".utf8) }
        held = [:]
        placed = [:]
        return out
    }

    /// How many images the terminal holds.
    public var heldCount: Int { held.count }

    /// The part of `chunk` inside the view, and the cell it starts at.
    static func placement(_ chunk: MapPicture.Chunk, cols: Int, rows: Int) -> Placement {
        let shown = chunk.shown(cols: cols, rows: rows)
        let (cw, ch) = (chunk.width / MapPicture.chunkCols, chunk.height / MapPicture.chunkRows)
        return Placement(
            col: chunk.col + shown.left, row: chunk.row + shown.top, x: shown.left * cw, y: shown.top * ch,
            width: (shown.right - shown.left) * cw, height: (shown.bottom - shown.top) * ch,
            cols: shown.right - shown.left, rows: shown.bottom - shown.top)
    }

    /// Sends a chunk's pixels as image `id`, kept and not shown (`a=t`).
    private func transmit(_ chunk: MapPicture.Chunk, id: Int) -> [UInt8] {
        let packed = pack(chunk.rgba)
        let keys = "a=t,f=32,s=\(chunk.width),v=\(chunk.height),i=\(id),q=2" + (packed == nil ? "" : ",o=z")
        return KittyGraphics.chunked(keys: keys, payload: packed ?? chunk.rgba)
    }

    /// Places `slot` (image and placement number: a later placement of the same numbers moves it), under the text and under
    /// cells with a background of their own, the cursor not moved.
    private func place(_ slot: Slot, _ p: Placement) -> [UInt8] {
        Array(
            ("\u{1B}[\(p.row + 1);\(p.col + 1)H\u{1B}_Ga=p,i=\(slot.id),p=\(slot.number),x=\(p.x),y=\(p.y),w=\(p.width),h=\(p.height),"
                + "c=\(p.cols),r=\(p.rows),z=-1073741825,C=1,q=2\u{1B}\\").utf8)
    }

    /// Lets go of the images shown longest ago while more than `limit` are held.
    private mutating func evict() -> [UInt8] {
        guard held.count > limit else { return [] }
        var out: [UInt8] = []
        let unshown = held.filter { $0.value.shown != frame }.sorted { $0.value.shown < $1.value.shown }
        for (key, image) in unshown.prefix(held.count - limit) {
            held[key] = nil
            out += Array("\u{1B}_Ga=d,d=I,i=\(image.id),q=2\u{1B}\\".utf8)
        }
        return out
    }
}
