#!/usr/bin/env python3
"""Mutation check: each mutant is one plausible bug (a sign, a factor, a dropped check, the other
pole, the other direction). It is applied to a scratch copy of the tree, which is then built and
tested; a mutant is killed when a test fails (the run stops at the first). Prints the killed count
and every survivor, exits 1 when any mutant survives or no longer applies.

    python3 Tools/mutants.py [--only SUBSTRING] [--changed-since REV] [--scratch DIR]

The scratch copy (default .build/mutants) is kept between runs, so later runs build incrementally.
Takes minutes: `make mutants` runs it; CI does not.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# (file, old text, new text, why). The old text must occur exactly once in the file.
# A mutant with e2e scripts also runs them when the Swift tests pass (for code only a terminal shows).
MUTANTS = [
    # The seven that once survived the whole suite.
    ("Sources/Viewer/ViewerCommands.swift", "\"pan up a whole view\") { $0.pan(0, -1) }",
     "\"pan up a whole view\") { $0.pan(0, 1) }",
     "K (a whole view up) pans down"),
    ("Sources/Viewer/MouseInput.swift", "if case .wheelUp = m { direction = .zoomIn } else { direction = .zoomOut }",
     "if case .wheelUp = m { direction = .zoomIn } else { direction = .zoomIn }",
     "the mouse wheel down zooms in"),
    ("Sources/Viewer/ViewChanges.swift", "if history.count > ViewerState.historyLimit { history.removeFirst() }",
     "if history.count > ViewerState.historyLimit { history.removeLast() }",
     "a full undo history drops the newest view instead of the oldest"),
    ("Sources/Viewer/ViewChanges.swift", "        previous.resize(to: view.size)\n", "",
     "undo after a resize brings back the old view size"),
    ("Sources/Viewer/ViewChanges.swift", "        view = previous\n",
     "        _ = try? view.setCenter(previous.center, zoomLevel: view.zoom)\n",
     "undo brings back the center but not the zoom"),
    ("Sources/Viewer/ViewerState.swift", "        if pb.x - pa.x > 0.5 { pb.x -= 1 }\n        if pa.x - pb.x > 0.5 { pb.x += 1 }\n",
     "", "the zoom animation crosses the 180° meridian the long way round"),
    ("Sources/GeoCore/CircleFit.swift", "(ring.map(\\.y).max() ?? 1) : (ring.map(\\.y).min() ?? 0)",
     "(ring.map(\\.y).max() ?? 1) : (ring.map(\\.y).max() ?? 0)",
     "the fit around the south pole uses the wrong far edge"),
    ("Sources/MapRender/LabelEngine.swift", "for c in lo...hi where taken[row * cols + c] {",
     "for c in lo...hi where taken[row * cols + c] && c < 0 {", "label collision: place names may overlap"),
    ("Sources/MapRender/Graticule.swift", "public static let targetDots = 40.0", "public static let targetDots = 25.0",
     "the graticule step is not the one the ladder should pick (lines too close)"),
    ("Sources/Viewer/InputParsing.swift", "        guard z >= 0 else {", "        guard z >= 0 || true else {",
     "the zoom prompt's own check is gone (the model's check answers instead)"),
    ("Sources/Viewer/InputParsing.swift", "guard abs(c.latitude) <= 90 else {", "guard abs(c.latitude) <= 90 || true else {",
     "the go-to prompt's own latitude check is gone"),
    ("Sources/Viewer/ScreenShift.swift", "painter.moveColumns(by: columns, rows: mapRows)",
     "painter.moveColumns(by: -columns, rows: mapRows)",
     "columns moved the wrong way (the cells after the move repair the picture; only the bytes show it)",
     ["Tests/e2e/terminal_e2e.py"]),
    ("Sources/Raster/TerminalReplies.swift", "return .reply(TerminalColor.backgroundReport(body).map { .backgroundColor($0) } ?? .otherCommand)",
     "return .reply(.otherCommand)", "the background colour's answer is taken out of the keys but not read"),
    ("Sources/MapRender/ThemeChoice.swift", "return bg <= 6 || bg == 8 ? .dark : .light", "return bg <= 7 || bg == 8 ? .dark : .light",
     "COLORFGBG's background 7 (light grey) taken for dark"),
    ("Sources/TerminalUI/CursesScreen.swift", "        painter.cleared(cols: size.cols, rows: size.rows)\n        replies = TerminalReplies()",
     "        replies = TerminalReplies()", "after fg the painter believes the cleared screen still shows the last frame",
     ["Tests/e2e/terminal_e2e.py"]),
    # Ones the suite already killed, kept so that it goes on killing them.
    ("Sources/GeoCore/ZoomButton.swift", "self == .zoomIn ? 0.4 : 3", "self == .zoomIn ? 0.5 : 3",
     "zoom factor: in ×0.5 instead of the seed's ×0.4"),
    ("Sources/GeoCore/WebMercator.swift", "public static let maxLatitude = 85.05112877980659",
     "public static let maxLatitude = 85.04112877980659", "Mercator limit off by 0.01°"),
    ("Sources/GeoCore/MapView.swift", "let halfLon = 360 * size.widthDots / 2 / worldSize",
     "let halfLon = 360 * size.widthDots / worldSize", "span: the longitude span doubled"),
    ("Sources/GeoCore/CircleFit.swift", "public var zoom: Double { MapView.clampZoom(min(zoomX, zoomY)) }",
     "public var zoom: Double { MapView.clampZoom(zoomX) }", "fit axis: only the width decides (the seed's fault)"),
    ("Sources/GeoCore/GeodesicCircle.swift", "let bearing = 360 * Double(i) / Double(n)",
     "let bearing = 180 * Double(i) / Double(n)", "ring bearings cover half a turn"),
    ("Sources/Raster/BrailleCanvas.swift", "[[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]",
     "[[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x80, 0x40]]", "braille bits: dots 7 and 8 swapped"),
    ("Sources/Raster/BrailleCanvas.swift", "return dy == 3 ? UInt8(0x40 << dx) : UInt8(1 << (dy + 3 * dx))",
     "return dy == 3 ? UInt8(0x80 >> dx) : UInt8(1 << (dy + 3 * dx))", "braille bits as lines set them: dots 7 and 8 swapped"),
    ("Sources/MapData/MapAsset.swift", "guard CRC32.update(0, payload) == info.checksum else { return nil }",
     "guard CRC32.update(0, payload) == info.checksum || true else { return nil }", "chunk CRC not checked"),
    ("Sources/GeoCore/MapView.swift", "p.x += dx / worldSize", "p.x -= dx / worldSize", "pan sign: east is west"),
    ("Sources/Viewer/ScreenShift.swift", "let dx = (moved.x - after.size.widthDots / 2)",
     "let dx = (after.size.widthDots / 2 - moved.x)", "shift sign: the hint moves columns the wrong way"),
    ("Sources/MapData/MapAsset.swift",
     "c.minX <= c.maxX, c.minY <= c.maxY, Int64(c.minX) >= -limit, Int64(c.maxX) <= limit,",
     "c.minX <= c.maxX, c.minY <= c.maxY,", "validation: chunk boxes beyond ±540° are accepted"),
    ("Sources/MapData/MapAsset.swift", "levels <= f.maxLevels, chunks <= f.maxChunks,", "levels <= f.maxLevels,",
     "validation: absurd chunk counts reach the index reader"),
    # Street level: the PBF reader, the importer, source precedence, street names.
    ("Sources/MapFormats/OSM/Protobuf.swift", "sum = sum &+ zigzag(v)", "sum = zigzag(v)",
     "PBF deltas (dense nodes, refs) read as absolute values"),
    ("Sources/MapBuilders/OSMImporter.swift", "                    ring.refs.reverse()\n", "",
     "multipolygon rings only grow at one end"),
    ("Sources/MapBuilders/OSMImporter.swift", "                report.missingReferences += 1\n                if current.count >= 2 { parts.append(current) }\n                current = []",
     "                report.missingReferences += 1",
     "a line runs straight across the nodes an extract lacks"),
    ("Sources/MapData/FeatureSources.swift", "for c in Self.claims(source) { claimed[c, default: []] += claimBoxes }",
     "for c in Self.claims(source) where c == .minorRoad { claimed[c, default: []] += claimBoxes }",
     "a coarser shoreline is drawn over the street-level data"),
    ("Sources/MapRender/StreetLabels.swift", "                named.insert(s.name)\n", "",
     "a street's name is written more than once"),
    # The seams: effects, the idle event, the option table.
    ("Sources/Viewer/ViewerCommands.swift", "effects: { _, _ in [.repaint] })", "effects: { _, _ in [] })",
     "Ctrl-L does not repaint"),
    ("Sources/Viewer/LoopRuntime.swift", "now() - lastInput >= idleTimeout", "now() - lastInput >= idleTimeout * 100",
     "the idle timeout never comes"),
    ("Sources/termmap/OptionTable.swift", "help: \"quit after M minutes without a key\", commands: [.viewer],",
     "help: \"quit after M minutes without a key\", commands: [.viewer, .render],",
     "the option table gives render an option it cannot use"),
    # The shape: modes, the command table, the loop's pacing.
    ("Sources/Viewer/KeyboardInput.swift", "        case .info: return infoKey(key)\n", "        case .info: return rulerKey(key)\n",
     "a mode's keys looked up in the wrong mode (the info panel's keys are the ruler's)"),
    ("Sources/Viewer/KeyboardInput.swift", "        if showInfo { open.append(.info) }\n        if ruler != nil { open.append(.ruler) }\n",
     "        if ruler != nil { open.append(.ruler) }\n        if showInfo { open.append(.info) }\n",
     "the open modes in the wrong order (the ruler sees Esc before the info panel above it)"),
    ("Sources/Viewer/ViewerCommands.swift", "    public var worksInEveryMode: Bool { modes == Set(Mode.allCases) }",
     "    public var worksInEveryMode: Bool { false }", "Ctrl-Z is typed into an open prompt instead of suspending"),
    ("Sources/Viewer/FramePacer.swift", "            if keysInFlight && answerDelay > Self.burstQuiet { burstHoldSince = t }",
     "            if keysInFlight && answerDelay > Self.burstQuiet * 100 { burstHoldSince = t }",
     "a slow link's burst of keys is drawn key by key (no hold for the burst's end)"),
    ("Sources/Viewer/ScriptEnd.swift", "            && !frameOwed && inboxEmpty && !tourPlays",
     "            && inboxEmpty && !tourPlays", "a script ends while a frame is still owed"),
    ("Sources/Viewer/ViewerCommands.swift", "        ViewerCommands.row(command) ?? addedCommands.first { $0.command == command }",
     "        ViewerCommands.row(command)", "a command added from outside is bound to its key but never runs"),
    ("Sources/MapData/Tiles/TileSource.swift", "            guard let bytes = s.cache.peek(tile)?.source else { return nil }",
     "            guard case .success(let bytes?)? = archive.tiles([tile])[tile] else { return nil }",
     "a read during draw: what-is-here reads the tile from the archive again"),
    ("Sources/MapFormats/UserData/UserLayerColumns.swift", "        let u = (value * unitsPerWorld).rounded(.up)",
     "        let u = (value * unitsPerWorld).rounded(.down)",
     "the user's coordinates rounded down: a point on a cell's west edge falls into the cell before it"),
    ("Sources/MapFormats/UserData/XMLEvents.swift", "                    if entry.key == key { return entry.name }",
     "                    if entry.key.count == key.count { return entry.name }",
     "XML element names of one length taken for one another (the name table compares lengths only)"),
    ("Sources/Viewer/SessionStart.swift", "        state.add(files: files, viewGiven: viewGiven)\n", "",
     "a session starts without the user's files"),
    ("Sources/MapFormats/UserData/UserDataReader.swift",
     "        if let driver = drivers.first(where: { $0.claims(content: head, extension: ext) }) { return driver.format }\n"
     "        if let driver = drivers.first(where: { $0.extensions.contains(ext) }) { return driver.format }\n",
     "        if let driver = drivers.first(where: { $0.extensions.contains(ext) }) { return driver.format }\n"
     "        if let driver = drivers.first(where: { $0.claims(content: head, extension: ext) }) { return driver.format }\n",
     "the drivers asked by extension before content (a GeoJSON file named .toy is read as a toy)"),
    # The layered core: layers in order, the pick, credits, effects, one driver, one encoder.
    ("Sources/MapRender/MapRenderer.swift", "        for layer in overlays { layer.draw(into: &context) }",
     "        for layer in overlays.reversed() { layer.draw(into: &context) }",
     "the layers over the map drawn in the wrong order (the seeds' picture before the circle it draws beside)"),
    ("Sources/MapRender/MapRenderer.swift", "BaseMapLayer(), GraticuleLayer(), PlacesLayer(), StreetNamesLayer(), PointsOfInterestLayer(),",
     "BaseMapLayer(), GraticuleLayer(), StreetNamesLayer(), PlacesLayer(), PointsOfInterestLayer(),",
     "street names placed before the places (a base layer out of order)"),
    ("Sources/MapRender/Pick.swift", "        let i = row * cols + col\n        let tag = lineTags[i]",
     "        let i = row * cols + col + 1\n        let tag = lineTags[min(i, lineTags.count - 1)]",
     "the pick answers for the cell beside the one asked"),
    ("Sources/MapRender/MapRendering.swift", "        if drawn { credit(result.source.credits) }", "",
     "the credit of the data drawn is dropped"),
    ("Sources/MapRender/PlacesLayer.swift", "        if named { c.report.credit(sources.features.base.placeCredits) }", "",
     "the gazetteer is not credited where its names are shown"),
    ("Sources/Viewer/Update.swift", "for batch in missing where requestedTiles[batch.source] != batch.tiles {",
     "for batch in missing where requestedTiles[batch.source] != batch.tiles && false {",
     "a frame's missing tiles are never asked for"),
    ("Sources/Viewer/ScriptedRecording.swift", "        if let inbox, !inbox.isEmpty { return nil }\n", "",
     "an event left in the inbox does not end the loop's wait"),
    ("Sources/Raster/TerminalReplies.swift", "            if isAnswer, c == 0x63 {  // c: the answer's end",
     "            if isAnswer, c == 0x64 {  // c: the answer's end", "a device attributes answer is taken for keys"),
    ("Sources/Raster/TerminalEncoding.swift", "            if fg > 8 && fg <= 16 {\n                fg -= 8",
     "            if fg > 8 && fg <= 16 {\n                fg -= 0", "8 colours: a bright foreground sent as 90–97"),
    ("Sources/Viewer/Keymap.swift", "                out += \"-\" + ch.lowercased()", "                out += ch.lowercased()",
     "command names are not kebab-case"),
    ("Sources/Viewer/ScreenShift.swift", "    public var isMoved: Bool { rows == 0 || columns == 0 }",
     "    public var isMoved: Bool { true }", "a diagonal shift is taken for a move the terminal can make"),
    ("Sources/GeoCore/ViewTransform.swift", "        let last = ((b.upperBound - a.lowerBound) / period).rounded(.down)",
     "        let last = ((b.upperBound - a.upperBound) / period).rounded(.down)",
     "world copies: the last copy a span meets is taken from its east end"),
    # Readers against other projects' suites.
    ("Sources/MapFormats/Tiles/MVTDecoder.swift", "if id == 1 && (k == 0 || type == .point) {", "if id == 1 && k == 0 {",
     "MVT multipoint: the points after the first are joined into one part"),
    ("Sources/MapData/Tiles/TileSource.swift", "        guard valid else { return nil }", "        guard valid && skipped == 0 else { return nil }",
     "a tile with one malformed feature is dropped whole"),
    ("Sources/MapRender/Transliteration.swift", "if ch.isASCII && ch.isNumber { out += \"d\" }", "if ch.isASCII && ch.isNumber { out += \"\" }",
     "ASCII drops the degree sign before minutes"),
    ("Sources/MapBuilders/OSMImporter.swift", "return abs(c.latitude) <= 90 && abs(c.longitude) <= 180 ? c : nil",
     "return c", "libosmium's undefined location is taken as a point (a road to 214.7°)"),
    ("Sources/MapBuilders/OSMImporter.swift", "let (closed, open) = Rings.assemble(members.map { (id: $0.id, refs: $0.refs) })",
     "let (closed, open) = Rings.assemble(members.map { (id: $0.id, refs: $0.refs) }.prefix(1).map { $0 })",
     "a multipolygon's ring is joined from its first member way only"),
    ("Sources/MapBuilders/OSMImporter.swift",
     "guard !drawnByRelation.contains(WayOfClass(id: way.id, featureClass: featureClass)) else { continue }", "",
     "an inner way tagged like its relation fills the relation's hole"),
    ("Sources/MapBuilders/OSMImporter.swift", "for i in rings.indices where containers[i].count % 2 == 0 {",
     "for i in rings.indices where containers[i].count % 2 == 1 {", "a multipolygon's holes come before its outer ring"),
    ("Sources/MapData/Tiles/PMTiles.swift", "guard overflow || end > size else { continue }", "guard overflow else { continue }",
     "a cut PMTiles file opens as if whole"),
    ("Sources/MapData/FeatureSources.swift", "if let boxes = view.claims { claimBoxes = boxes }", "",
     "a tileset whose tiles failed still hides the bundled city there"),
    ("Sources/MapData/Tiles/TileArchive.swift", "if json[\"vector_layers\"] == nil, case .string(let nested)? = json[\"json\"],",
     "if json[\"vector_layers\"] == nil, case .string(let nested)? = json[\"tilejson\"],",
     "tilemaker's nested PMTiles metadata is not read"),
    ("Sources/MapData/Tiles/MBTiles.swift", "if let format = meta[\"format\"] ?? Self.firstTile(db).flatMap(Self.rasterKind), format != \"pbf\" {",
     "if let format = meta[\"format\"], format != \"pbf\" {", "raster MBTiles without a format row open"),
    ("Sources/MapData/Tiles/MBTiles.swift", "            maxZoom = deepest\n", "",
     "an MBTiles maxzoom past its tiles is believed (nothing drawn past the last zoom)"),
    ("Sources/termmap/DataLoading.swift", "                skipped.append(Skipped(error: error))\n                continue\n",
     "                throw error\n", "a damaged file in the data folder stops the viewer"),
    ("Sources/termmap/DataCommands.swift", "let matches = locator.allFiles(tilesets: true).filter { listName($0.file) == name || $0.file == name }",
     "let matches = locator.allFiles(tilesets: false).filter { listName($0.file) == name || $0.file == name }",
     "data remove cannot remove a tileset data list shows"),
    ("Sources/MapRender/MapSources.swift", "name: street.name, label: street.name + (kind.isEmpty ? \"\" : \", \" + kind),",
     "name: street.name, label: street.name + \", street\",", "every street-level match is called a street"),
    ("Sources/MapRender/PlaceSearch.swift", "if best == nil, q.count >= minimumTypoLength, oneEditFromAPrefix(q, of: name) { best = .typo }",
     "", "a one-letter typo finds nothing"),
    ("Sources/Viewer/Render.swift", "guard !prompt.choices.isEmpty || (prompt.kind == .search && typed) else { return }",
     "guard !prompt.choices.isEmpty else { return }", "no match is said only after Enter"),
    ("Sources/MapFormats/Tiles/MVTDecoder.swift", "let t = all.prefix(all.count / 2 * 2)",
     "guard all.count % 2 == 0 else { return nil }\n                let t = all[...]",
     "a feature's odd tag count refuses its whole tile (mvt-fixtures 005 is recoverable)"),
    # Street level that reads as a map.
    ("Sources/MapBuilders/CoastlineSea.swift", "let corner = (from.rounded(.down) + Double(k)).truncatingRemainder(dividingBy: 4)",
     "let corner = (from.rounded(.down) - Double(k) + 8).truncatingRemainder(dividingBy: 4)",
     "the sea walks the box anticlockwise (the land on the right of the coastline)"),
    ("Sources/MapBuilders/CoastlineSea.swift", "if island == inSea { rings.append(ring) }", "if island != inSea { rings.append(ring) }",
     "an island in the sea is not a hole in it"),
    ("Sources/MapBuilders/CoastlineSea.swift", "guard let nearest = sides.min(by: { $0.0 < $1.0 }), nearest.0 <= maxGap",
     "guard let nearest = sides.max(by: { $0.0 < $1.0 }), nearest.0 <= maxGap",
     "a coastline end is taken to the farthest side of the box"),
    ("Sources/MapRender/StyleTable.swift", 'name: "path", minZoom: 15, color256: 174, color16: 1,', 'name: "path", minZoom: 15, color256: 174, color16: 5,',
     "paths magenta like buildings in 8 and 16 colours"),
    ("Sources/MapRender/FeatureLayer.swift", "let half = (tagged > 0 ? Double(tagged) / 10 * dotsPerMetre : classWidthDots) / 2", "let half = (tagged > 0 ? Double(tagged) / 10 * dotsPerMetre : classWidthDots)",
     "roads drawn twice as wide as they are"),
    ("Sources/MapData/FeatureSources.swift", "return source.classes.contains(.land) ? shore.union(tints) : shore.subtracting(tints)",
     "return shore.union(tints)", "street data without land of its own hides the world's land"),
    ("Sources/MapRender/PointsOfInterestLayer.swift", "                c.report.poisOmitted += 1\n", "",
     "poisOmitted counts nothing"),
    ("Sources/MapFormats/ChunkDecoder.swift", "previousObject = previousObject &+ UInt64(bitPattern: o)",
     "previousObject = UInt64(bitPattern: o)", "OSM ids read as stored differences, not added up"),
    ("Sources/MapBuilders/OSMImporter.swift", "return UInt32((Double(l) * 32.5).rounded())", "return UInt32((Double(l) * 35).rounded())",
     "a lane taken as 3.5 m, not docs/data.md's 3.25"),
    ("Sources/MapData/FeatureSources.swift", "guard let text = unclaimed else { return nil }", "guard let text = unclaimed, text.isEmpty else { return nil }",
     "an import claims the stretches it could not tell land from sea in"),
    ("Sources/MapRender/WhatIsHere.swift", "        return area && inside\n", "        return false\n",
     "what is here finds an area only by its edge, not a cell inside a building"),
    ("Sources/MapData/Tiles/TileSource.swift", "found[UInt64(layerOrdinal) << 32 | UInt64(featureOrdinal)] =",
     "found[UInt64(layerOrdinal) << 32 | UInt64(featureOrdinal + 1)] =",
     "a tile feature's properties read from the feature before it"),
    ("Sources/Viewer/Formatting.swift", "let (minutes, centiseconds) = rest.quotientAndRemainder(dividingBy: 6_000)",
     "let (minutes, centiseconds) = rest.quotientAndRemainder(dividingBy: 3_600)", "seconds of arc counted as if a minute had 36"),
    # Hostile input (issue 43): the sanitiser, widths, bounded work, forgiving readers, state files, crashes.
    ("Sources/Support/SafeText.swift", "        case 0..<0x20, 0x7F...0x9F: return true  // C0, DEL, C1",
     "        case 0..<0x20: return true  // C0, DEL, C1", "C1 controls (U+009B, a CSI in one character) pass the sanitiser"),
    ("Sources/Support/SafeText.swift", "        case 2?: return (first, 2)", "        case 2?: return (first, 1)",
     "a wide glyph is counted one column: rows shift"),
    ("Sources/Raster/TerminalPainter.swift", "let wide = abilities.unicode && col + 1 < cols && cells[start + col + 1].glyph.value == 0",
     "let wide = false", "the painter writes a wide glyph's second cell as a glyph of its own"),
    ("Sources/MapFormats/DouglasPeucker.swift", "            guard left >= b - a - 1 else {", "            guard left >= 0 || true else {",
     "Douglas–Peucker without its budget: quadratic again"),
    ("Sources/MapFormats/UserData/UserLayerDetail.swift", "if inRing >= 3 && k < end", "if inRing >= Int.max && k < end",
     "a level draws every tooth finer than a dot (ten million lines a frame)"),
    ("Sources/MapRender/AreaFill.swift", "parity[(row - rowRange.lowerBound) * width + from - colRange.lowerBound].toggle()", "_ = from",
     "a large polygon's fill by parity marks nothing"),
    ("Sources/MapFormats/UserData/GeoJSONReader.swift", "                guard sequence || values > 0, !error.refusesFile,",
     "                guard false, !error.refusesFile,", "a text sequence's cut record fails the whole file"),
    ("Sources/MapFormats/UserData/UserLayerData.swift", "        guard lon.isFinite, lat.isFinite, abs(lat) <= 90, abs(lon) <= 540 else {",
     "        guard lon.isFinite, lat.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {", "longitudes past ±180° are left out again"),
    ("Sources/MapFormats/UserData/WKT.swift", "        let steps = nearest < 7 ? 7 : 7 + 2 * ((nearest - 6) / 2)",
     "        let steps = max(1, nearest)", "arcs in steps that are not GDAL's"),
    ("Sources/termmap/BookmarkFile.swift", "        var list = BookmarkList(text: text)\n        list.apply(change)",
     "        var list = BookmarkList(text: text.isEmpty ? text : \"\")\n        list.apply(change)",
     "a bookmark change is written over the file without reading it again: the other viewer's are lost",
     ["Tests/e2e/hostile_e2e.py"]),
    ("Sources/termmap/UserFiles.swift", "        if let kind = notAFile(info.st_mode) {", "        if let kind = notAFile(info.st_mode), false {",
     "a device named as a file is read (render /dev/zero grows without end)", ["Tests/e2e/hostile_e2e.py"]),
    ("Sources/CTerminal/cterminal.c", "static void on_crash(int sig, siginfo_t *info, void *context) {\n    restore_terminal_from_handler();",
     "static void on_crash(int sig, siginfo_t *info, void *context) {", "a crash leaves the terminal raw", ["Tests/e2e/hostile_e2e.py"]),
    # One drawing for every source (issue 44): the fill, the stroke, the placement, the pick, the hit test.
    ("Sources/MapRender/AreaFill.swift", "            for cut in cuts where cut.1 >= start && cut.0 <= to {",
     "            for cut in cuts where cut.1 >= start && cut.0 <= to && false {",
     "an area is filled inside the box where a finer source draws its class"),
    ("Sources/MapRender/Stroke.swift", "let open = closes && (xs[end - 1] != xs[start] || ys[end - 1] != ys[start])", "let open = false",
     "a polygon ring its file left open is drawn open (its last side missing)"),
    ("Sources/MapRender/Pick.swift", "reference: FeatureReference(source: nil, feature: .own(feature?[f] ?? f)))",
     "reference: FeatureReference(source: nil, feature: .own(f)))",
     "a level's feature picked by its place in the level, not its number in the file"),
    ("Sources/MapRender/Placement.swift", "t.copies(minX: 0, maxX: 1).map { WorldPlacement(t, copy: $0) }", "[WorldPlacement(t, copy: 0)]",
     "a view showing several world copies draws a user's file in one of them"),
    ("Sources/MapRender/WhatIsHere.swift", "whole.index.features(minX: x0, minY: y0, maxX: x1, maxY: y1) { candidates.append($0) }",
     "whole.index.features(minX: x0, minY: y0, maxX: x1, maxY: y1) { _ in }",
     "what is here takes none of the features a file's index has near the cell"),
    ("Sources/Raster/Frame.swift", "        if holdsWideGlyphs {\n            for i in storage.indices where storage[i].isContinuation {",
     "        if false {\n            for i in storage.indices where storage[i].isContinuation {",
     "the map's pass in place leaves half of a label's wide glyph"),
    ("Sources/Raster/Frame.swift", "        if cell.isContinuation { holdsWideGlyphs = true }\n", "",
     "a frame forgets it holds a wide glyph: a cell set over half of one leaves the other half"),
    ("Sources/Support/SafeText.swift", "case 0xA0..<0x300: return v == 0xAD ? nil : 1", "case 0xA0..<0x370: return v == 0xAD ? nil : 1",
     "combining marks taken as plain: a lone accent is drawn bare, not on its dotted circle"),
    # A user's file as a source (issue 44): listed among the sources, indexed by the one grid over boxes.
    ("Sources/MapRender/UserDataLayer.swift", "        c.report.overlays.append(\n",
     "        _ = (\n", "a user's file is not listed among the sources a render reports"),
    ("Sources/MapFormats/UserData/UserLayerDetail.swift", "            return Self.units(x0, y0, x1, y1)\n",
     "            return Self.units(x0, y0, x0, y0)\n",
     "a file's index lists a feature by its box's corner (a long line is found only near its start)"),
    # The first ten minutes (issue 45).
    ("Sources/Viewer/Update.swift", "        guard !messageIsError || message.isEmpty else { return }\n",
     "        guard message.isEmpty else { return }\n",
     "a street-data hint yields to a key's routine message (a pan's) and never shows"),
    ("Sources/GeoCore/MapView.swift", "let (top, bottom) = half < 0.5 ? (half, 1 - half) : (0.0, 1.0)",
     "let (top, bottom) = (0.0, 1.0)", "panning north leaves a blank band above the world's edge"),
    ("Sources/MapRender/MapSources.swift", "return d <= vicinity.radiusMeters ? (f.rank.rawValue, 0, d, f.order) : (f.rank.rawValue, 1, 0, f.order)",
     "return (f.rank.rawValue, 1, 0, f.order)", "a search ranks a match near the view as it ranks one far away"),
    ("Sources/MapRender/PlaceSearch.swift", "if let at = find(q, in: name) { note(name[at - 1] == 32 ? .wordPrefix : .infix) }",
     "if let at = find(q, in: name) { note(.infix) }", "a word's start ranks as a match anywhere in a name"),
    ("Sources/MapRender/MapRenderer.swift", "        let plain = !mode.hasColor\n", "        let plain = false\n",
     "without colour water, parks, paths and rail share the roads' braille, and the sea is blank"),
    ("Sources/MapRender/WhatIsHere.swift", "name: n >= 0 ? source.featureName(n) : nameAlong(hit, source: s, cell: cell),",
     "name: n >= 0 ? source.featureName(n) : nil,", "i lists an OpenMapTiles street with no name"),
    ("Sources/MapRender/UserDataLayer.swift", "            c.labels.giveWay(to: c.canvas.inks.map { $0 >= firstUserInk })\n",
     "            _ = firstUserInk\n", "the map's names cover a user's track (no label gives way)"),
    # Directions (issue 46).
    ("Sources/MapFormats/OSM/RouteProfile.swift", 'case "yes", "1", "true": return (true, false)',
     'case "yes", "1", "true": return (true, true)', "oneway=yes is ignored"),
    ("Sources/Routing/RoutingGraph.swift", "            if r.only ? r.toWay != toWay : r.toWay == toWay { return false }\n",
     "", "turn restrictions are ignored"),
    ("Sources/Routing/RoutingGraph.swift", "return 2 * boundRadius * asin(min(1, h.squareRoot()))",
     "return 3 * boundRadius * asin(min(1, h.squareRoot()))", "the A* bound overestimates (by half)"),
    ("Sources/Routing/RouteSteps.swift", 'let side = turn > 0 ? "right" : "left"',
     'let side = turn < 0 ? "right" : "left"', "a step's turn side is swapped"),
    # Imagery (issue 47).
    ("Sources/MapRender/ImagerySampling.swift", "halves[((half / 2) * cols + col) * 2 + half % 2] = colour",
     "halves[((half / 2) * cols + col) * 2 + 1 - half % 2] = colour", "the half block's halves are swapped"),
    ("Sources/MapData/Tiles/ImagerySource.swift", "let ideal = zoom + log2(256.0 / Double(tilePixels)) - 1",
     "let ideal = zoom + log2(256.0 / Double(tilePixels))", "the imagery's tile zoom is off by one"),
    ("Sources/MapRender/ImagerySampling.swift", "channel(sum.1) << 8 | channel(sum.2)", "channel(sum.1) << 8",
     "the imagery's blue channel is dropped"),
    ("Sources/MapRender/ImagerySampling.swift", "let (chunkX, chunkY) = (floorDiv(cellX, cw), floorDiv(cellY, ch))",
     "let (chunkX, chunkY) = (cellX / cw, cellY / ch)", "the picture's chunks round towards zero, not down"),
    ("Sources/Raster/KittyPlacements.swift", "            if placed[id] != p { out += place(id: id, p) }",
     "            if placed[id] == nil { out += place(id: id, p) }", "a pan leaves kitty's kept chunks where they were"),
    ("Sources/Raster/SixelEncoder.swift", "let bit = UInt8(1 << (y - top))", "let bit = UInt8(32 >> (y - top))",
     "sixel's bands are drawn upside down"),
    ("Sources/Raster/SixelChunks.swift", "            guard shown[place]?.key != key || holed else { continue }",
     "            guard shown[place]?.key != key else { continue }", "a hole in a sixel picture is never filled"),
    ("Sources/Raster/SixelChunks.swift", "        let vacated = shown.filter { now[$0.key] == nil }.map(\\.value.area)",
     "        let vacated: [Area] = []", "sixel leaves a picture where no chunk shows any more"),
    ("Sources/Raster/KittyPlacements.swift", "            while now[slot] != nil { slot.number += 1 }", "",
     "a world chunk shown twice keeps one kitty placement"),
    # Terrain (issue 48).
    ("Sources/MapFormats/Images/TerrainEncoding.swift", "Double(blue) / 256 - 32768", "Double(blue) / 256 - 32767",
     "Terrarium's offset is off by a metre"),
    ("Sources/MapData/Tiles/TerrainSource.swift", "let gx = x * Double(n * size) - 0.5", "let gx = x * Double(n * size)",
     "heights are filtered from pixel corners, not centres"),
    ("Sources/GeoCore/ElevationProfile.swift", "            if h - last >= Self.hysteresis {",
     "            if h - last > 0 {", "ascent counts every rise, without the 2 m dead band"),
    ("Sources/MapRender/ContourLayer.swift", "return Int(steps) % indexEvery == 0", "return Int(steps) % indexEvery == 1",
     "the index contours are the wrong lines (not every fifth from zero)"),
    ("Sources/MapData/Tiles/Hillshade.swift", "let sunAngle = (90 - azimuth) * .pi / 180",
     "let sunAngle = (azimuth - 90) * .pi / 180", "the hillshade's sun is in the north-east, not the north-west"),
    ("Sources/MapData/Tiles/TerrainSource.swift", "        let side = grid.side - 1\n", "        let side = grid.side - 2\n",
     "contours stop short of a tile's edge (a seam between tiles)"),
    # Position and time (issue 49).
    ("Sources/MapRender/PositionLayer.swift",
     "let octant = Int(((course.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8",
     "let octant = 0", "the marker ignores the course (always points north)"),
    ("Sources/Viewer/LivePosition.swift",
     "guard dot.x < w * m || dot.x > w * (1 - m) || dot.y < h * m || dot.y > h * (1 - m) else { return }",
     "guard dot.x < 0 || dot.x > w || dot.y < 0 || dot.y > h else { return }",
     "follow recentres only once the marker has left the screen, not near its edge"),
    ("Sources/MapFormats/UserData/TimedTrack.swift", "        let i = doneCount(at: t)\n",
     "        let i = Swift.min(times.count, 1 + Int((t - first) / (times[times.count - 1] - first) * Double(times.count - 1)))\n",
     "a track's marker is interpolated by vertex index (times taken as evenly spaced), not by time"),
    ("Sources/CImage/cimage.c", "out[((size_t)y * width + x) * 4 + 2] = row[x * 3 + 2];",
     "out[((size_t)y * width + x) * 4 + 2] = 0;", "a JPEG's blue channel is dropped"),
    ("Sources/MapRender/LabelEngine.swift", "        for i in user.indices where user[i] { taken[i] = true }\n", "",
     "a file's own names may cover its lines (the cells they draw in are not taken)"),
]


def run(cmd, cwd, timeout):
    """True when `cmd` succeeds within `timeout` seconds (a hang counts as a failure)."""
    try:
        return subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=timeout).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def sync_tree(scratch):
    """Copies the project's files (tracked and new, not ignored) into `scratch`, touching only files
    that changed, so that the scratch build stays incremental."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    files = {f for f in files if f and os.path.isfile(os.path.join(ROOT, f))}
    for f in files:
        src, dst = os.path.join(ROOT, f), os.path.join(scratch, f)
        if os.path.exists(dst) and open(src, "rb").read() == open(dst, "rb").read():
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
    for top, dirs, names in os.walk(scratch):
        dirs[:] = [d for d in dirs if not (top == scratch and d in (".build", ".swiftpm"))]
        for n in names:
            rel = os.path.relpath(os.path.join(top, n), scratch)
            if rel not in files:
                os.remove(os.path.join(top, n))


# The test module that most likely kills a mutant of a source folder: it runs first, the others only
# when it passes (a killed mutant then costs seconds, not the whole suite's minute).
FIRST_TESTS = {"GeoCore": "GeoCoreTests", "Raster": "RasterTests", "MapFormats": "MapDataTests",
               "MapData": "MapDataTests", "MapBuilders": "MapDataTests", "MapRender": "ViewerTests",
               "Viewer": "ViewerTests", "TerminalUI": "ViewerTests", "termmap": "CLITests",
               "Routing": "RoutingTests", "CImage": "MapDataTests"}


def tests_pass(cwd, timeout, args=()):
    """True when every Swift test `args` selects passes within `timeout` seconds. Stops at the first
    failure Swift Testing reports (a line starting with its cross): one failing test kills a mutant."""
    proc = subprocess.Popen(["swift", "test", "--skip-build", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    timer = threading.Timer(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL))
    timer.start()
    try:
        for line in proc.stdout:
            if line.lstrip().startswith("\u2718".encode()):
                return False
        return proc.wait() == 0
    finally:
        timer.cancel()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def suite_passes(cwd, path):
    """True when the whole suite passes: the test module nearest `path` first, then the rest."""
    parts = path.split("/")
    first = FIRST_TESTS.get(parts[1]) if len(parts) > 2 and parts[0] == "Sources" else None
    if first is None:
        return tests_pass(cwd, 600)
    pattern = f"^{first}\\."
    return tests_pass(cwd, 600, ["--filter", pattern]) and tests_pass(cwd, 600, ["--skip", pattern])


def build_and_test(scratch, e2e=(), path=""):
    """'built' and 'passed' flags for the scratch tree (`path`: the file mutated)."""
    if not run(["swift", "build", "--build-tests"], scratch, 1800):
        return False, False
    if not suite_passes(scratch, path):
        return True, False
    binary = os.path.join(scratch, ".build", "debug", "termmap")
    for script in e2e:
        if not run([sys.executable, os.path.join(scratch, script), binary], scratch, 600):
            return True, False
    return True, True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="run only mutants whose reason contains this text")
    parser.add_argument("--changed-since", metavar="REV",
                        help="run only mutants of files changed since this commit (a full run's follow-up)")
    parser.add_argument("--scratch", default=os.path.join(ROOT, ".build", "mutants"))
    args = parser.parse_args()
    scratch = os.path.abspath(args.scratch)
    os.makedirs(scratch, exist_ok=True)
    sync_tree(scratch)
    mutants = [m for m in MUTANTS if not args.only or args.only in m[3]]
    if args.changed_since:
        changed = set(subprocess.run(["git", "diff", "--name-only", args.changed_since, "--", "Sources"], cwd=ROOT,
                                     capture_output=True, text=True, check=True).stdout.split())
        mutants = [m for m in mutants if m[0] in changed]

    started = time.time()
    built, passed = build_and_test(scratch)
    if not (built and passed):
        print("mutants: the unmutated tree does not build and pass its tests; fix that first")
        return 2

    killed, survivors, stale = 0, [], []
    for i, (path, old, new, why, *rest) in enumerate(mutants, 1):
        e2e = rest[0] if rest else []
        target = os.path.join(scratch, path)
        original = open(target, encoding="utf-8").read()
        if original.count(old) != 1:
            stale.append((path, why, original.count(old)))
            print(f"[{i}/{len(mutants)}] STALE    {why} ({path}: the old text occurs {original.count(old)} times)")
            continue
        t0 = time.time()
        try:
            with open(target, "w", encoding="utf-8") as f:
                f.write(original.replace(old, new))
            built, passed = build_and_test(scratch, e2e, path)
        finally:
            with open(target, "w", encoding="utf-8") as f:
                f.write(original)
        if not built:
            stale.append((path, why, "does not build"))
            verdict = "NO BUILD"
        elif passed:
            survivors.append((path, why))
            verdict = "SURVIVED"
        else:
            killed += 1
            verdict = "killed  "
        print(f"[{i}/{len(mutants)}] {verdict} {why} ({path}, {time.time() - t0:.0f} s)", flush=True)

    print(f"\nmutants: {killed} of {len(mutants)} killed in {(time.time() - started) / 60:.1f} min")
    for path, why in survivors:
        print(f"  survived: {why} ({path})")
    for path, why, detail in stale:
        print(f"  not applied: {why} ({path}: {detail})")
    return 0 if not survivors and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
