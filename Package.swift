// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "CourierCore", targets: ["CourierCore"]),
        .library(name: "CourierHTTP", targets: ["CourierHTTP"]),
        .library(name: "AnalyticsCollector", targets: ["AnalyticsCollector"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .executable(name: "courier-server", targets: ["courier-server"]),
        .executable(name: "courier", targets: ["courier"]),
        .executable(name: "courier-bench", targets: ["courier-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CCivetWeb",
            providers: [.apt(["libcivetweb-dev"]), .brew(["civetweb"])]),
        .target(name: "CourierCore", dependencies: ["CSQLite", "CZlib"]),
        .target(name: "CourierHTTP", dependencies: ["CourierCore", "CCivetWeb"]),
        .target(name: "AnalyticsCollector", dependencies: ["CourierCore", "CourierHTTP"]),
        .target(name: "CourierTesting", dependencies: ["CourierCore"]),
        .executableTarget(name: "courier-server", dependencies: ["AnalyticsCollector", "CourierHTTP", "CourierCore"]),
        .executableTarget(name: "courier", dependencies: ["CourierCore", "CourierHTTP"]),
        .executableTarget(
            name: "courier-bench", dependencies: ["AnalyticsCollector", "CourierHTTP", "CourierCore"],
            path: "Benchmarks/courier-bench"),
        .testTarget(name: "CourierCoreTests", dependencies: ["CourierCore", "CourierTesting"]),
        .testTarget(name: "CourierHTTPTests", dependencies: ["CourierHTTP", "CourierCore", "CourierTesting"]),
        .testTarget(
            name: "AnalyticsCollectorTests",
            dependencies: ["AnalyticsCollector", "CourierHTTP", "CourierCore", "CourierTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
