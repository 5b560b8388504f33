import Foundation

/// `courier-bench sdk-size`: what linking `Analytics` adds to an app's release binary. It weighs
/// `sdk-size-probe` (an app that configures the SDK and tracks) beside `hello-size-probe` (the
/// same app without it), both built with `-c release` next to this benchmark, as files and
/// stripped; and it lists what the probe links that an analytics SDK has no business carrying:
/// server code (CourierHTTP, the servers), the messenger's crypto (SignalProtocol, libsodium,
/// libxeddsa), libwebsockets, libcurl.
struct SDKSizeBenchmark {
    /// Modules and libraries that must not be in the SDK's closure, by how their symbols start
    /// (Swift's mangled module names, C prefixes) and by library file name.
    static let forbiddenSymbols = [
        ("CourierHTTP (server engine)", "11CourierHTTP"), ("AnalyticsCollector", "18AnalyticsCollector"),
        ("MessengerServer", "15MessengerServer"), ("SignalProtocol", "14SignalProtocol"),
        ("libsodium", "sodium_"), ("libxeddsa", "xed25519_"), ("libwebsockets", "lws_"),
    ]
    static let forbiddenLibraries = ["libwebsockets", "libsodium", "libxeddsa", "libcurl", "libpq", "libnats"]

    func run() throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let probe = directory.appendingPathComponent("sdk-size-probe").path
        let hello = directory.appendingPathComponent("hello-size-probe").path
        for path in [probe, hello] where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchError(
                "\(path) is not built: swift build -c release --product sdk-size-probe --product hello-size-probe")
        }
        print("== sdk-size: an app with the analytics SDK beside the same app without it (release builds) ==")
        let (withSDK, without) = (try Self.size(probe), try Self.size(hello))
        let (strippedWith, strippedWithout) = (try Self.strippedSize(probe), try Self.strippedSize(hello))
        print(Self.row("binary, as built", withSDK, without))
        print(Self.row("binary, stripped", strippedWith, strippedWithout))
        print(
            String(
                format: "   linking Analytics adds %.1f KB stripped (%.1f KB as built)",
                Double(strippedWith - strippedWithout) / 1024, Double(withSDK - without) / 1024))
        let symbols = try Self.output("/usr/bin/nm", ["--defined-only", probe])
        let found = Self.forbiddenSymbols.filter { symbols.contains($0.1) }.map(\.0)
        // The libraries the probe itself names (`NEEDED`), not what they load in turn: on Linux,
        // Foundation's URLSession brings libcurl, as it does for any app.
        let needed = try Self.output("/usr/bin/readelf", ["-d", probe]).split(separator: "\n")
            .filter { $0.contains("(NEEDED)") }
            .compactMap { line in line.split(separator: "[").last.map { String($0.dropLast()) } }
        let libraries = needed.filter { name in Self.forbiddenLibraries.contains { name.hasPrefix($0) } }
        print("   server or crypto code linked: \(found.isEmpty ? "none" : found.joined(separator: ", "))")
        print("   forbidden shared libraries: \(libraries.isEmpty ? "none" : libraries.joined(separator: ", "))")
        let own = needed.filter {
            !$0.hasPrefix("libswift") && !$0.hasPrefix("libFoundation") && !$0.hasPrefix("libdispatch")
        }
        print("   other libraries it names: \(own.joined(separator: ", "))")
    }

    static func row(_ name: String, _ ours: Int, _ peer: Int) -> String {
        let padded = name.padding(toLength: 22, withPad: " ", startingAt: 0)
        return String(
            format: "%@ %8.1f KB   vs hello world %8.1f KB   = %.2f×", padded, Double(ours) / 1024,
            Double(peer) / 1024, Double(ours) / Double(max(peer, 1)))
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// The size of a stripped copy (`strip` on a temporary file).
    static func strippedSize(_ path: String) throws -> Int {
        let copy = NSTemporaryDirectory() + "size-probe-" + UUID().uuidString
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        _ = try output("/usr/bin/strip", [copy])
        return try size(copy)
    }

    /// What `executable` prints on standard output.
    static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
