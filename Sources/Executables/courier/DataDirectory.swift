import Foundation

/// Where `courier` keeps what it stores when no `--data-dir` is given: `$XDG_DATA_HOME/courier`,
/// else `$HOME/.local/share/courier` (the XDG base directory rules), else the password database's
/// home. The environment comes first, so a user (or a test) who points `HOME` elsewhere finds
/// nothing written under the account's real home.
enum DataDirectory {
    /// The default directory for `environment`.
    static func `default`(environment: [String: String]) -> String {
        // The XDG rules ignore a relative or empty value.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/courier"
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return home + "/.local/share/courier"
    }

    /// The analytics SDK's queue folder under the default directory.
    static func analytics(environment: [String: String]) -> String {
        self.default(environment: environment) + "/analytics"
    }

    /// A path no directory can be made under (`/dev/null` is a file).
    static let nowhere = "/dev/null/courier"

    /// Keeps Foundation's networking from writing outside the data directory, and returns the
    /// environment as it was (for `default`). Call first thing, before any thread starts.
    ///
    /// On Linux, making any `URLSessionConfiguration`, even `.ephemeral` with `urlCache = nil`,
    /// creates the shared URL cache's folder (`$XDG_CACHE_HOME/org.swift.foundation.URLCache/…`)
    /// and the shared cookie store's (`$XDG_DATA_HOME/<executable's folder>/`). The client
    /// libraries use neither: no disk cache and an in-memory cookie store. Pointing both
    /// variables where nothing can be created leaves those folders uncreated; Foundation gives
    /// up on the disk parts silently, and the shared cookie store writes only when a cookie is
    /// set on it, which the libraries never do.
    static func confineFoundation() -> [String: String] {
        let environment = ProcessInfo.processInfo.environment
        #if os(Linux)
            setenv("XDG_CACHE_HOME", nowhere, 1)
            setenv("XDG_DATA_HOME", nowhere, 1)
        #endif
        return environment
    }
}
