import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// The engine speaks HTTP/1.1 only, so over TLS it must not accept HTTP/2 in ALPN: lws offers
/// `h2,http/1.1` by default, and a client that chose h2 (curl, browsers, URLSession on Apple
/// platforms) got no answer at all.
@Suite struct TLSALPNTests {
    @Test func aClientOfferingH2IsAnsweredWithHTTP1() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.tls = HTTPServerTLS(
            certificateChainPath: certificates.serverCertificate, privateKeyPath: certificates.serverKey)
        var router = Router()
        router.addHealthCheck()
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        defer { inBackground { server.stop(deadline: .zero) } }
        let outcome = try await runOffPool {
            Result {
                try ChildProcess.run(
                    "/bin/sh",
                    [
                        "-c",
                        "printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' | "
                            + "/usr/bin/openssl s_client -connect 127.0.0.1:\(server.port) -servername localhost "
                            + "-alpn h2,http/1.1 -CAfile \(certificates.caCertificate) -ign_eof",
                    ])
            }
        }.get()
        #expect(outcome.output.contains("ALPN protocol: http/1.1"), "\(outcome.output.prefix(3_000))")
        #expect(outcome.output.contains("HTTP/1.1 200"))
    }
}
