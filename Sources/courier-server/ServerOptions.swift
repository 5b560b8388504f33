import Foundation

/// The command-line options of `courier-server`.
struct ServerOptions {
    var host = "127.0.0.1"
    var port = 8080
    var dataDirectory = ".courier"
    var workerThreads = 32
    var writeKeys: [String] = []
    var writeKeysFile: String?
    var adminToken: String?
    var adminTokenFile: String?
    var dedupeWindowHours = 24.0
    var accessLog = true

    static let usage = """
        USAGE: courier-server [options]

        Serves the analytics collector (Segment's tracking API) with data in an embedded SQLite
        database in the data directory.

        OPTIONS:
          --host ADDRESS            address to listen on (default 127.0.0.1)
          --port N                  port; 0 picks a free one (default 8080)
          --data-dir PATH           data directory (default .courier)
          --threads N               HTTP worker threads (default 32)
          --write-key KEY           accept this write key (repeatable)
          --write-keys-file PATH    accept the write keys in this file, one per line
          --admin-token TOKEN       bearer token of the admin API (settings, events)
          --admin-token-file PATH   read the admin token from this file
          --dedupe-window-hours H   how long messageIds are remembered (default 24)
          --quiet                   no access log
          -h, --help                show this help

        SIGINT or SIGTERM stop the server gracefully: it stops accepting connections, finishes
        the requests in flight, commits, and closes the database.
        """

    enum ParseResult {
        case run(ServerOptions)
        case help
        case failure(String)
    }

    static func parse(_ arguments: [String]) -> ParseResult {
        var options = ServerOptions()
        var rest = arguments[...]
        func value(_ flag: String) -> String? {
            guard let v = rest.popFirst() else { return nil }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "-h", "--help": return .help
            case "--quiet": options.accessLog = false
            case "--host", "--port", "--data-dir", "--threads", "--write-key", "--write-keys-file",
                 "--admin-token", "--admin-token-file", "--dedupe-window-hours":
                guard let v = value(flag) else { return .failure("\(flag) needs a value") }
                switch flag {
                case "--host": options.host = v
                case "--port":
                    guard let p = Int(v), (0...65535).contains(p) else { return .failure("--port must be 0…65535") }
                    options.port = p
                case "--data-dir": options.dataDirectory = v
                case "--threads":
                    guard let n = Int(v), (1...1024).contains(n) else { return .failure("--threads must be 1…1024") }
                    options.workerThreads = n
                case "--write-key": options.writeKeys.append(v)
                case "--write-keys-file": options.writeKeysFile = v
                case "--admin-token": options.adminToken = v
                case "--admin-token-file": options.adminTokenFile = v
                default:
                    guard let h = Double(v), h.isFinite, h > 0, h <= 87_600 else {
                        return .failure("--dedupe-window-hours must be more than 0 and at most 87600")
                    }
                    options.dedupeWindowHours = h
                }
            default:
                return .failure("unknown option \(flag)")
            }
        }
        return .run(options)
    }

    /// Write keys from the flags and the file.
    func allWriteKeys() throws -> [String] {
        var keys = writeKeys
        if let path = writeKeysFile {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            keys += text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return keys
    }

    /// The admin token from the flag or the file.
    func resolvedAdminToken() throws -> String? {
        if let adminToken { return adminToken }
        guard let path = adminTokenFile else { return nil }
        return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
