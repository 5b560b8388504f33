import CourierTesting
import Foundation
import Testing

/// `Tests/peers/websocket_peer.py`: a WebSocket server from Python's `websockets` library, on
/// 127.0.0.1 and a port of the kernel's choosing, that behaves by path (see the script).
final class WebSocketPeer: Sendable {
    static let packageRoot = ProjectPaths.packageRoot

    let port: Int
    let secure: Bool
    private let process: ChildProcess

    /// The project venv's Python, with websockets 17.1.
    static func python() throws -> String {
        let python = ProjectPaths.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no Python venv at \(python): run `make test` (or scripts/bootstrap) first")
        return python
    }

    /// Starts the peer and waits for its port.
    init(certificates: TestCertificates? = nil, compression: Bool = true) async throws {
        var arguments = [Self.packageRoot.appendingPathComponent("Tests/peers/websocket_peer.py").path]
        if let certificates {
            arguments += ["--cert", certificates.serverCertificate, "--key", certificates.serverKey]
        }
        if !compression { arguments.append("--no-compression") }
        let process = try ChildProcess(try Self.python(), arguments, input: .pipe, output: .pipe)
        let output = process.output!
        let line = await runOffPool { () -> String in
            var bytes: [UInt8] = []
            while true {
                let data = output.readData(ofLength: 1)
                if data.isEmpty || data.first == UInt8(ascii: "\n") { break }
                bytes += data
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let port = Int(line) else {
            process.terminate()
            throw WebSocketPeerFailure(description: "the peer did not print its port (got \"\(line)\")")
        }
        self.port = port
        self.secure = certificates != nil
        self.process = process
    }

    deinit {
        try? process.input?.close()
        process.terminate()
    }

    /// `ws://127.0.0.1:PORT/PATH` (or `wss://`, or another host name).
    func url(_ path: String, host: String = "127.0.0.1") -> String {
        "\(secure ? "wss" : "ws")://\(host):\(port)\(path)"
    }
}

struct WebSocketPeerFailure: Error, CustomStringConvertible {
    let description: String
}
