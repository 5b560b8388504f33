import CourierTesting
import Foundation
import Synchronization
import Testing

/// `courier-server` as `OpenAPIContractTests` runs it: every route group on, no rate limits, an
/// ephemeral port, and its standard error kept (where it names routes the document lacks).
final class ContractServer: Sendable {
    let process: ChildProcess
    let port: Int
    private let errorText = Mutex<String?>(nil)

    /// Starts `executable` with `data` as its data directory.
    init(_ executable: String, data: String, writeKey: String, adminToken: String, syncToken: String) async throws {
        process = try ChildProcess(
            executable,
            [
                "--port", "0", "--data-dir", data, "--write-key", writeKey, "--quiet", "--rate-limit-client", "0",
                "--rate-limit-key", "0", "--rate-limit-registrations", "0", "--rate-limit-sends", "0",
            ],
            environment: ["COURIER_ADMIN_TOKEN": adminToken, "COURIER_SYNC_TOKENS": "\(syncToken)=owner-1"],
            output: .pipe, errorOutput: .pipe)
        let output = process.output!
        let line = await runOffPool { () -> String in
            var text = ""
            while !text.contains("\n") {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        guard let range = line.range(of: "http://127.0.0.1:"),
            let port = Int(line[range.upperBound...].prefix { $0.isNumber })
        else {
            process.terminate()
            _ = process.wait()
            throw RawSocket.Failure(description: "courier-server printed no address: \(line)")
        }
        self.port = port
    }

    /// Stops the server (once) and returns what it wrote on standard error.
    @discardableResult
    func stop() -> String {
        errorText.withLock { text in
            if let text { return text }
            process.terminate()
            let written = String(decoding: process.errorOutput!.readDataToEndOfFile(), as: UTF8.self)
            _ = process.wait()
            text = written
            return written
        }
    }
}
