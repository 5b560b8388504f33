import CBareHTTPPeer
import CourierHTTP
import CourierTesting
import Foundation

/// A WebSocket echo server in a child process (the benchmark re-executed with a hidden
/// subcommand), so that the idle sockets' server side has a file limit of its own and its memory
/// can be read from `/proc/<pid>/status`. The child prints its port and serves until its stdin
/// closes.
final class WebSocketServerProcess {
    /// Which server the child runs.
    enum Kind: String {
        /// Courier's `HTTPServer` on libwebsockets with an `/echo` WebSocket route.
        case courier = "websocket-server"
        /// The bare C echo server (`bare_websocket_peer.c`).
        case bare = "websocket-bare-server"
    }

    private let child: BenchChildServer

    /// Starts the child and waits for its port.
    init(_ kind: Kind) throws { child = try BenchChildServer([kind.rawValue]) }

    var port: Int { child.port }

    /// The child's resident memory (`VmRSS`), in bytes.
    var residentBytes: Int { child.residentBytes }

    /// Closes the child's stdin and waits for it to stop.
    func stop() { child.stop() }

    /// The child's side: serves `kind` until stdin closes. Returns the exit status.
    static func serve(_ kind: Kind) -> Int32 {
        switch kind {
        case .courier:
            let server: HTTPServer
            do { server = try WebSocketBenchmark.startCourierServer(maximumConnections: fileLimit().soft) } catch {
                FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
                return 1
            }
            announce(server.port)
            _ = server.stop(deadline: .zero)
        case .bare:
            let port = bare_websocket_peer_start(0)
            guard port > 0 else { return 1 }
            announce(Int(port))
            bare_websocket_peer_stop()
        }
        return 0
    }

    /// Prints the port and blocks until stdin reaches its end.
    private static func announce(_ port: Int) {
        FileHandle.standardOutput.write(Data("\(port)\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
    }
}

/// The process's file limit (`RLIMIT_NOFILE`): what it may open now, and what it may raise that to.
func fileLimit() -> (soft: Int, hard: Int) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
    return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
}

/// The benchmark re-executed with a hidden subcommand as a server of its own: it prints its port,
/// serves until its stdin closes, and its memory is read from `/proc/<pid>/status`.
final class BenchChildServer {
    let port: Int
    private let process: ChildProcess

    /// Starts `courier-bench arguments…` and waits for the port it prints.
    init(_ arguments: [String]) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        process = try ChildProcess(executable, arguments, input: .pipe, output: .pipe)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = process.output!.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            process.wait()
            throw BenchError("the \(arguments.joined(separator: " ")) child did not print its port")
        }
        self.port = port
    }

    /// The child's resident memory (`VmRSS`), in bytes.
    var residentBytes: Int { status("VmRSS:") }

    /// The most resident memory the child has had (`VmHWM`), in bytes.
    var peakResidentBytes: Int { status("VmHWM:") }

    private func status(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let row = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        return (Int(row.split(separator: " ")[1]) ?? 0) * 1024
    }

    /// Closes the child's stdin and waits for it to stop.
    func stop() {
        try? process.input?.close()
        process.wait()
    }
}
