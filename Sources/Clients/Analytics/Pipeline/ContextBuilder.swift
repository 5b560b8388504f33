import CourierCore
import Foundation

/// The `context` every event carries: app, os, device, locale, timezone, library. Built once,
/// when the pipeline starts (never at `configure`).
enum ContextBuilder {
    /// The library's name and version on the wire.
    static let libraryName = "courier-analytics-swift"
    /// The SDK version.
    static let libraryVersion = "0.1.0"

    static func base(configuration: AnalyticsConfiguration) -> [String: JSONValue] {
        let process = ProcessInfo.processInfo
        let version = process.operatingSystemVersion
        #if os(iOS)
            let osName = "iOS"
        #elseif os(macOS)
            let osName = "macOS"
        #elseif os(Linux)
            let osName = "Linux"
        #else
            let osName = "unknown"
        #endif
        let app = configuration.app ?? .current
        return [
            "app": [
                "name": .string(app.name), "version": .string(app.version), "build": .string(app.build),
                "namespace": .string(app.namespace),
            ],
            "os": [
                "name": .string(osName),
                "version": .string("\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"),
            ],
            "device": ["type": .string(osName.lowercased()), "model": .string(machine())],
            "locale": .string(Locale.current.identifier),
            "timezone": .string(TimeZone.current.identifier),
            "library": ["name": .string(libraryName), "version": .string(libraryVersion)],
        ]
    }

    private static func machine() -> String {
        var info = utsname()
        uname(&info)
        return withUnsafeBytes(of: info.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
