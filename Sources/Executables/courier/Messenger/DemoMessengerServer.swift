import CourierCore
import CourierHTTP
import Foundation
import MessengerServer

/// The messenger server the scripted demo runs in its own process: 127.0.0.1, a port the
/// system picks, its database and attachment files in a temporary directory.
final class DemoMessengerServer: Sendable {
    /// The server's data directory (`messenger.sqlite` and its journal, `attachments/`).
    let dataDirectory: String
    private let server: HTTPServer

    /// Starts the server with its data in `dataDirectory`.
    /// - Throws: when the database cannot be created or the port cannot be bound.
    init(dataDirectory: String) throws {
        self.dataDirectory = dataDirectory
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        var configuration = MessengerConfiguration()
        configuration.attachmentDirectory = dataDirectory + "/attachments"
        let store = try SQLiteMessengerStore(path: dataDirectory + "/messenger.sqlite")
        let messenger = MessengerServer(configuration: configuration, store: store)
        var router = Router()
        messenger.mount(on: &router)
        var options = HTTPServerConfiguration()
        options.host = "127.0.0.1"
        options.port = 0
        server = HTTPServer(configuration: options, router: router)
        try server.start()
    }

    var baseURL: String { server.baseURL }

    /// Stops listening (requests in flight get up to a second).
    func stop() { _ = server.stop(deadline: .seconds(1)) }

    /// The files under the data directory, with the plaintexts each one contains.
    /// - Returns: how many files and bytes were read, and every (file, plaintext) found.
    func scan(for plaintexts: [String]) throws -> (files: Int, bytes: Int, found: [(file: String, text: String)]) {
        var files = 0
        var total = 0
        var found: [(file: String, text: String)] = []
        let manager = FileManager.default
        for path in (manager.subpaths(atPath: dataDirectory) ?? []).sorted() {
            var isDirectory: ObjCBool = false
            let full = dataDirectory + "/" + path
            guard manager.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
            files += 1
            total += bytes.count
            for text in plaintexts where bytes.range(of: Data(text.utf8)) != nil {
                found.append((path, text))
            }
        }
        return (files, total, found)
    }
}
