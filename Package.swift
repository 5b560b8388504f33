// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "CourierCore", targets: ["CourierCore"]),
        .library(name: "CourierHTTPClient", targets: ["CourierHTTPClient"]),
        .library(name: "CourierHTTP", targets: ["CourierHTTP"]),
        .library(name: "CourierPostgres", targets: ["CourierPostgres"]),
        .library(name: "CourierNATS", targets: ["CourierNATS"]),
        .library(name: "Analytics", targets: ["Analytics"]),
        .library(name: "AnalyticsCollector", targets: ["AnalyticsCollector"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "FlagRules", targets: ["FlagRules"]),
        .library(name: "FeatureFlags", targets: ["FeatureFlags"]),
        .library(name: "FlagServer", targets: ["FlagServer"]),
        .library(name: "Console", targets: ["Console"]),
        .library(name: "SignalProtocol", targets: ["SignalProtocol"]),
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .library(name: "Realtime", targets: ["Realtime"]),
        .library(name: "Messenger", targets: ["Messenger"]),
        .library(name: "SyncWire", targets: ["SyncWire"]),
        .library(name: "Sync", targets: ["Sync"]),
        .library(name: "SyncServer", targets: ["SyncServer"]),
        .library(name: "Pagination", targets: ["Pagination"]),
        .library(name: "CourierCommandLine", targets: ["CourierCommandLine"]),
        .executable(name: "courier-server", targets: ["courier-server"]),
        .executable(name: "courier", targets: ["courier"]),
        .executable(name: "courier-bench", targets: ["courier-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite", path: "Sources/System/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/System/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CLibWebSockets", path: "Sources/System/CLibWebSockets", pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"]), .brew(["libwebsockets"])]),
        .systemLibrary(
            name: "CCurl", path: "Sources/System/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(
            name: "CSodium", path: "Sources/System/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .systemLibrary(name: "CXEdDSA", path: "Sources/System/CXEdDSA", providers: [.apt(["libxeddsa-dev"])]),
        .systemLibrary(
            name: "COpenSSL", path: "Sources/System/COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/System/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/System/CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // No pkgConfig: Debian's re2.pc adds -pthread, a flag SwiftPM refuses with a warning.
        .systemLibrary(
            name: "CRE2", path: "Sources/System/CRE2",
            providers: [.apt(["libre2-dev"]), .brew(["re2"])]),
        .systemLibrary(
            name: "CLibPQ", path: "Sources/System/CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // glibc's allocator controls (mallopt, malloc_trim), set by the server executables only.
        .systemLibrary(name: "CMalloc", path: "Sources/System/CMalloc", providers: [.apt(["libc6-dev"])]),
        .systemLibrary(
            name: "CNATS", path: "Sources/System/CNATS", pkgConfig: "libnats",
            providers: [.apt(["libnats-dev"]), .brew(["cnats"])]),
        // simdjson (C++): measured beside Courier's parser by `courier-bench json` (CSimdJSONPeer).
        .systemLibrary(
            name: "CSimdJSON", path: "Sources/System/CSimdJSON",
            providers: [.apt(["libsimdjson-dev"]), .brew(["simdjson"])]),
        // RE2 is C++: a few extern "C" functions in front of it, for FlagRules' regex conditions.
        .target(
            name: "CRE2Shim", dependencies: ["CRE2"], path: "Sources/System/CRE2Shim",
            linkerSettings: [.linkedLibrary("re2")]),
        // libjpeg-turbo behind the setjmp that its error handling needs (Swift cannot hold one).
        .target(name: "CJPEGTurbo", path: "Sources/System/CJPEGTurbo", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CourierCore", dependencies: ["CSQLite", "CZlib"], path: "Sources/Core/CourierCore"),
        // The command table and its parser shared by courier, courier-server and courier-bench.
        .target(name: "CourierCommandLine", path: "Sources/Core/CourierCommandLine"),
        // SHA-256 for the modules that need a digest and no other crypto (OpenSSL's; CryptoKit's on Apple).
        .target(
            name: "CourierCrypto",
            dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux, .android]))],
            path: "Sources/Core/CourierCrypto"),
        .target(
            name: "SignalProtocol", dependencies: ["CourierCore", "CSodium", "CXEdDSA", "COpenSSL"],
            path: "Sources/Shared/SignalProtocol"),
        // Replays fuzz inputs; built with -DSIGNAL_FUZZ and -sanitize=fuzzer it is a libFuzzer target (docs/signal-protocol.md).
        .executableTarget(
            name: "signal-fuzz", dependencies: ["SignalProtocol"], path: "Sources/Executables/signal-fuzz"),
        // Test and benchmark only: libsignal-protocol-c behind a small C harness of our own, the
        // independent implementation SignalProtocol is checked against.
        .target(
            name: "CSignalPeer", path: "Sources/Testing/CSignalPeer",
            linkerSettings: [.linkedLibrary("signal-protocol-c"), .linkedLibrary("crypto")]),
        .target(
            name: "SignalInteropPeer", dependencies: ["SignalProtocol", "CSignalPeer"],
            path: "Sources/Testing/SignalInteropPeer"),
        // The client side of HTTP: HTTPClient, WebSocketClient (lws on Linux, URLSession on Apple) and
        // the WebSocket channel both sides share. Client libraries depend on this, never on CourierHTTP.
        .target(
            name: "CourierHTTPClient", dependencies: ["CourierCore", "CLibWebSockets"],
            path: "Sources/Clients/CourierHTTPClient"),
        // The server side: router, middleware, the libwebsockets engine, WebSocket routes.
        .target(
            name: "CourierHTTP",
            dependencies: ["CourierCore", "CourierHTTPClient", "CourierCrypto", "CLibWebSockets", "CMalloc"],
            path: "Sources/Servers/CourierHTTP"),
        .target(
            name: "Analytics", dependencies: ["CourierCore"], path: "Sources/Clients/Analytics",
            resources: [.copy("Resources/PrivacyInfo.xcprivacy")]),
        .target(
            name: "AnalyticsCollector", dependencies: ["CourierCore", "CourierHTTP", "CourierPostgres"],
            path: "Sources/Servers/AnalyticsCollector"),
        // Flag definitions, targeting and bucketing: shared by the client and the server's evaluate route.
        .target(name: "FlagRules", dependencies: ["CourierCore", "CRE2Shim"], path: "Sources/Shared/FlagRules"),
        .target(
            name: "FeatureFlags", dependencies: ["FlagRules", "CourierCore"], path: "Sources/Clients/FeatureFlags"),
        .target(
            name: "FlagServer", dependencies: ["FlagRules", "CourierCore", "CourierHTTP", "CourierPostgres"],
            path: "Sources/Servers/FlagServer"),
        // PostgreSQL through libpq: pool, prepared statements, savepoints, migrations under an advisory lock.
        .target(
            name: "CourierPostgres", dependencies: ["CourierCore", "CLibPQ"], path: "Sources/Servers/CourierPostgres"),
        // NATS core through libnats: the message bus that carries wake-ups and presence between instances.
        .target(name: "CourierNATS", dependencies: ["CourierCore", "CNATS"], path: "Sources/Servers/CourierNATS"),
        // The web console at /console/: sign-in, sessions, its page; it calls the other modules' admin APIs.
        .target(
            name: "Console", dependencies: ["CourierCore", "CourierCrypto", "CourierHTTP", "CourierPostgres"],
            path: "Sources/Servers/Console"),
        // Test and benchmark only: posix_spawn with the options Swift's Glibc module does not show.
        .target(name: "CSpawn", path: "Sources/Testing/CSpawn"),
        .target(
            name: "CourierTesting",
            dependencies: ["CourierCore", "CourierHTTP", "CourierPostgres", "Realtime", "CSpawn"], path: "Sources/Testing/CourierTesting"),
        .target(
            name: "MessengerServer",
            dependencies: [
                "CourierCore", "CourierCrypto", "CourierHTTP", "CourierPostgres", "SignalProtocol", "CSodium", "COpenSSL",
                "CCurl",
            ],
            path: "Sources/Servers/MessengerServer"),
        .target(
            name: "ImagePipeline",
            dependencies: ["CourierCore", "CourierHTTPClient", "CourierCrypto", "CJPEGTurbo", "CPNG", "CWebP"],
            path: "Sources/Clients/ImagePipeline"),
        .target(
            name: "Realtime", dependencies: ["CourierCore", "CourierHTTPClient"], path: "Sources/Clients/Realtime"),
        .target(
            name: "Messenger",
            dependencies: ["SignalProtocol", "Realtime", "CourierCore", "CourierHTTPClient", "Pagination"],
            path: "Sources/Clients/Messenger"),
        // Keyset cursors (signed by the server), page requests and the prefetching paginator.
        .target(name: "Pagination", dependencies: ["CourierCore", "CSodium"], path: "Sources/Shared/Pagination"),
        // Operations, records, results and the record-set checksum: shared by Sync and SyncServer.
        .target(name: "SyncWire", dependencies: ["CourierCore"], path: "Sources/Shared/SyncWire"),
        .target(
            name: "Sync", dependencies: ["SyncWire", "CourierCore", "CourierHTTPClient"], path: "Sources/Clients/Sync"),
        .target(
            name: "SyncServer", dependencies: ["SyncWire", "Pagination", "CourierCore", "CourierHTTP", "CourierPostgres"],
            path: "Sources/Servers/SyncServer"),
        .executableTarget(
            name: "courier-server",
            dependencies: [
                "AnalyticsCollector", "MessengerServer", "FlagServer", "Console", "SyncServer", "CourierHTTP",
                "CourierCore", "CourierCommandLine", "CourierNATS", "CourierCrypto",
            ], path: "Sources/Executables/courier-server"),
        .executableTarget(
            name: "courier",
            dependencies: [
                "CourierCore", "CourierHTTP", "Analytics", "Messenger", "MessengerServer", "Realtime", "SignalProtocol",
                "CourierCommandLine", "ImagePipeline", "Sync",
            ], path: "Sources/Executables/courier"),
        // Benchmark only: libwebsockets answering `courier-bench http`'s routes, and echoing
        // `courier-bench websocket`'s messages on libev, with no Swift above it.
        .target(
            name: "CBareHTTPPeer", path: "Benchmarks/CBareHTTPPeer",
            linkerSettings: [.linkedLibrary("websockets"), .linkedLibrary("ev")]),
        // Benchmark only: an app with the analytics SDK and the same app without it, built for
        // `courier-bench sdk-size` to weigh.
        .executableTarget(name: "sdk-size-probe", dependencies: ["Analytics"], path: "Benchmarks/sdk-size-probe"),
        .executableTarget(name: "hello-size-probe", path: "Benchmarks/hello-size-probe"),
        // simdjson walking a Segment batch, the peer of Courier's parser in `courier-bench json`.
        .target(
            name: "CSimdJSONPeer", dependencies: ["CSimdJSON"], path: "Benchmarks/CSimdJSONPeer",
            linkerSettings: [.linkedLibrary("simdjson")]),
        .executableTarget(
            name: "courier-bench",
            dependencies: [
                "AnalyticsCollector", "Analytics", "CourierHTTP", "CourierCore", "SignalInteropPeer", "CBareHTTPPeer",
                "CourierTesting", "FeatureFlags", "FlagServer", "ImagePipeline", "MessengerServer", "Realtime", "Sync",
                "SyncServer", "Messenger", "CourierCommandLine", "CourierPostgres", "CourierNATS", "CSimdJSONPeer",
            ],
            path: "Benchmarks/courier-bench"),
        .testTarget(
            name: "ImagePipelineTests",
            dependencies: ["ImagePipeline", "CourierHTTP", "CourierCore", "CourierTesting"],
            path: "Tests/Clients/ImagePipelineTests"),
        .testTarget(
            name: "RealtimeTests",
            dependencies: ["Realtime", "MessengerServer", "CourierHTTP", "CourierCore", "CourierTesting"],
            path: "Tests/Clients/RealtimeTests"),
        // Test only: a second process on a device's store (the notification extension's stand-in).
        .executableTarget(
            name: "messenger-peer", dependencies: ["Messenger", "SignalProtocol", "CourierHTTP", "CourierCore"],
            path: "Tests/Support/MessengerPeer"),
        .testTarget(
            name: "MessengerTests",
            dependencies: [
                "Messenger", "MessengerServer", "SignalProtocol", "Realtime", "Pagination", "CourierHTTP",
                "CourierCore", "CourierTesting",
            ], path: "Tests/Clients/MessengerTests"),
        .testTarget(
            name: "CourierCoreTests", dependencies: ["CourierCore", "CourierTesting"],
            path: "Tests/Core/CourierCoreTests"),
        .testTarget(
            name: "CourierCommandLineTests", dependencies: ["CourierCommandLine", "CourierTesting"],
            path: "Tests/Core/CourierCommandLineTests"),
        .testTarget(
            name: "CourierHTTPTests", dependencies: ["CourierHTTP", "CourierCore", "CourierTesting"],
            path: "Tests/Servers/CourierHTTPTests"),
        .testTarget(
            name: "CourierNATSTests", dependencies: ["CourierNATS", "CourierCore", "CourierTesting"],
            path: "Tests/Servers/CourierNATSTests"),
        .testTarget(
            name: "CourierPostgresTests", dependencies: ["CourierPostgres", "CourierCore", "CourierTesting"],
            path: "Tests/Servers/CourierPostgresTests"),
        .testTarget(
            name: "AnalyticsTests",
            dependencies: ["Analytics", "AnalyticsCollector", "CourierHTTP", "CourierCore", "CourierTesting"],
            path: "Tests/Clients/AnalyticsTests"),
        .testTarget(
            name: "SignalProtocolTests", dependencies: ["SignalProtocol", "SignalInteropPeer", "CourierCore", "CourierTesting"],
            path: "Tests/Shared/SignalProtocolTests"),
        .testTarget(
            name: "MessengerServerTests",
            dependencies: [
                "MessengerServer", "SignalProtocol", "CourierHTTP", "CourierCore", "CourierPostgres", "CourierNATS",
                "CourierTesting",
            ],
            path: "Tests/Servers/MessengerServerTests"),
        .testTarget(
            name: "AnalyticsCollectorTests",
            dependencies: ["AnalyticsCollector", "CourierHTTP", "CourierCore", "CourierPostgres", "CourierCommandLine", "CourierTesting"],
            path: "Tests/Servers/AnalyticsCollectorTests"),
        .testTarget(
            name: "ConsoleTests",
            dependencies: [
                "Console", "AnalyticsCollector", "FlagServer", "CourierHTTP", "CourierCore", "CourierCrypto",
                "CourierPostgres", "CourierTesting",
            ], path: "Tests/Servers/ConsoleTests"),
        .testTarget(
            name: "FeatureFlagsTests",
            dependencies: [
                "FeatureFlags", "FlagRules", "FlagServer", "CourierHTTP", "CourierCore", "CourierPostgres", "CourierTesting",
            ],
            path: "Tests/Clients/FeatureFlagsTests"),
        .testTarget(
            name: "SyncTests",
            dependencies: [
                "Sync", "SyncServer", "SyncWire", "CourierHTTP", "CourierCore", "CourierPostgres", "CourierTesting",
            ],
            path: "Tests/Clients/SyncTests"),
        .testTarget(
            name: "PaginationTests",
            dependencies: ["Pagination", "SyncServer", "CourierHTTP", "CourierCore", "CourierTesting"],
            path: "Tests/Shared/PaginationTests"),
    ],
    swiftLanguageModes: [.v6]
)
