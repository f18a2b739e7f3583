// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "termmap",
    products: [
        .executable(name: "termmap", targets: ["termmap"]),
        .executable(name: "termmap-bench", targets: ["termmap-bench"]),
        .executable(name: "termmap-bare", targets: ["termmap-bare"]),
    ],
    // Each target lists exactly the targets its files import.
    targets: [
        // C boundaries: Debian's -dev packages through module maps (no pkgConfig, see README).
        .systemLibrary(name: "CProj", path: "Sources/CProj", providers: [.apt(["libproj-dev"]), .brew(["proj"])]),
        .systemLibrary(
            name: "CNcursesw", path: "Sources/CNcursesw", providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        .systemLibrary(name: "CExpat", path: "Sources/CExpat", providers: [.apt(["libexpat1-dev"]), .brew(["expat"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),

        // Pure libraries. Support: the text helpers every layer needs (the sanitiser, widths, trims, JSON).
        .target(name: "Support"),
        // What the system gives: a lock, error words, file facts, the monotonic clock, the standard streams.
        .target(name: "SystemSupport", dependencies: ["Support"]),
        .target(name: "GeoCore", dependencies: ["CProj"]),
        // libcurl through dlopen, only when a URL is given (no link-time network library).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // libpng, libjpeg and libwebp through dlopen, only when a raster tile is decoded (issue 47); their
        // headers from Debian's -dev packages.
        .target(name: "CImage", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        // Pure decoders and formats: bytes in, values out (the map data format, OSM PBF, MVT, the tile
        // schemas, the user's formats); no file, clock, thread or network.
        .target(name: "MapFormats", dependencies: ["CExpat", "CImage", "CZlib", "GeoCore", "Support"]),
        // The data at run time: map data files, tile archives, HTTP and the disk cache, loading threads.
        .target(
            name: "MapData", dependencies: ["CCurl", "CSQLite", "GeoCore", "MapFormats", "Support", "SystemSupport"]),
        // Offline builders: the OSM importer, the map data writer, PMTiles writing, `data get`'s area
        // download. The render path does not link them.
        .target(name: "MapBuilders", dependencies: ["GeoCore", "MapData", "MapFormats", "Support", "SystemSupport"]),
        // Routes and reach over an import's street network (issue 46): pure search, no I/O.
        .target(name: "Routing", dependencies: ["GeoCore", "MapFormats"]),
        .target(name: "Raster", dependencies: ["Support"]),
        // The map drawn: layers in order into a render that can be asked what is where.
        .target(name: "MapRender", dependencies: ["GeoCore", "MapData", "MapFormats", "Raster", "Support"]),
        .target(
            name: "Viewer",
            dependencies: ["GeoCore", "MapData", "MapFormats", "MapRender", "Raster", "Routing", "Support"]),

        // The only code that touches the terminal; CTerminal holds the C that Swift cannot write.
        .target(
            name: "CTerminal", dependencies: ["CNcursesw"],
            linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("util"), .linkedLibrary("pthread")]),
        .target(
            name: "TerminalUI",
            dependencies: ["CNcursesw", "CTerminal", "Raster", "Support", "SystemSupport", "Viewer"]),

        .executableTarget(
            name: "termmap",
            dependencies: [
                "GeoCore", "MapData", "MapFormats", "MapBuilders", "MapRender", "Raster", "Routing", "Support",
                "SystemSupport", "Viewer", "TerminalUI",
            ]),

        // Benchmark: frame times, start-up, memory, bytes sent to a terminal.
        .target(name: "CPty", linkerSettings: [.linkedLibrary("util")]),
        .executableTarget(name: "termmap-bare"),
        .executableTarget(
            name: "termmap-bench",
            dependencies: [
                "CPty", "GeoCore", "MapBuilders", "MapData", "MapFormats", "MapRender", "Raster", "Routing", "Support",
                "SystemSupport", "TestSupport",
                "Viewer",
            ]),
        // Fuzzers run in release by `make test`: seeded viewer events and damaged data files.
        .executableTarget(
            name: "termmap-fuzz",
            dependencies: [
                "GeoCore", "MapData", "MapFormats", "MapBuilders", "MapRender", "Raster", "Routing", "Support",
                "TestSupport",
                "Viewer",
            ]),

        // Other projects' conformance suites through the readers (`make conformance SUITES=DIR`).
        .executableTarget(
            name: "termmap-conformance",
            dependencies: [
                "CSQLite", "CZlib", "GeoCore", "MapData", "MapFormats", "MapBuilders", "MapRender", "TestSupport",
                "Viewer",
            ]),

        // What tests and fuzzers share: the seeded generator and the fake screen.
        .target(
            name: "TestSupport",
            dependencies: ["GeoCore", "MapData", "MapFormats", "MapBuilders", "Raster", "Support", "Viewer"]),

        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "MapDataTests", dependencies: ["GeoCore", "MapData", "MapFormats", "MapBuilders", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ViewerTests",
            dependencies: [
                "GeoCore", "MapData", "MapFormats", "MapBuilders", "MapRender", "Raster", "Support", "TestSupport",
                "Viewer",
            ],
            exclude: ["Snapshots", "Fixtures"]),
        .testTarget(
            name: "RoutingTests",
            dependencies: ["GeoCore", "MapData", "MapFormats", "MapBuilders", "Routing", "TestSupport", "Viewer"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "Support", "TestSupport"]),
        // Runs the built binary (the dependency builds it first).
        .testTarget(
            name: "CLITests",
            dependencies: ["GeoCore", "MapData", "MapFormats", "MapBuilders", "Support", "termmap", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
