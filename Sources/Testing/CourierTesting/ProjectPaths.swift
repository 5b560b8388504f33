import Foundation

/// Where the package's own files are, for tests that run its scripts and peers.
public enum ProjectPaths {
    /// The package root (the folder holding `Package.swift`), found from this file's place in it.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url = url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The project's Python, with the peer clients installed: the `.venv` that scripts/bootstrap
    /// (run by `make test`) makes at the package root, or the one `COURIER_PYTHON` names. So
    /// `swift test --filter X` finds it by itself once `make test` has run.
    public static var python: String {
        ProcessInfo.processInfo.environment["COURIER_PYTHON"]
            ?? packageRoot.appendingPathComponent(".venv/bin/python").path
    }
}
