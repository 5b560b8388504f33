import CourierTesting
import Foundation

/// A certificate authority and a server certificate it signed for 127.0.0.1 and localhost, made
/// with the `openssl` command in a temporary directory (never committed).
struct TestCertificates: Sendable {
    let directory: String
    var caCertificate: String { directory + "/ca.pem" }
    var serverCertificate: String { directory + "/server.pem" }
    var serverKey: String { directory + "/server.key" }

    static func make() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-ws-certs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: directory + "/server.ext", atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps: [[String]] = [
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Courier Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ],
            ["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
            ],
        ]
        for arguments in steps {
            let (status, errors) = await runOffPool { () -> (Int32, String) in
                do {
                    let outcome = try ChildProcess.run("/usr/bin/openssl", arguments, directory: directory)
                    return (outcome.status, outcome.errorOutput)
                } catch { return (-1, "\(error)") }
            }
            guard status == 0 else {
                throw WebSocketPeerFailure(description: "openssl \(arguments.first ?? "") failed: \(errors)")
            }
        }
        return TestCertificates(directory: directory)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
