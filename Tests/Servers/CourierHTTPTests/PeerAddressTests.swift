import CourierTesting
import Foundation
import Testing

@testable import CourierHTTP

/// The peer's address is read once per connection and kept on it; the client each request
/// names through a trusted proxy's `X-Forwarded-For` is still read per request.
@Suite(.timeLimit(.minutes(2)))
struct PeerAddressTests {
    @Test func everyRequestOfAKeptConnectionHasItsPeerAndItsOwnForwardedClient() async throws {
        var router = Router()
        router.add("GET", "/whoami") { request in .text(request.remoteAddress) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.trustedProxies = ["127.0.0.1"].compactMap(IPNetwork.init)
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        let port = server.port
        let answers = try await offPool { () -> [String] in
            let socket = try RawSocket(port: port)
            var answers: [String] = []
            for forwarded in ["198.51.100.1", "198.51.100.2", nil] {
                let header = forwarded.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
                try socket.send("GET /whoami HTTP/1.1\r\nHost: x\r\n\(header)\r\n")
                guard let response = socket.readResponse() else { throw RawSocket.Failure(description: "no answer") }
                answers.append(String(decoding: response.body, as: UTF8.self))
            }
            let other = try RawSocket(port: port)
            try other.send("GET /whoami HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answers.append(other.readResponse().map { String(decoding: $0.body, as: UTF8.self) } ?? "")
            return answers
        }
        #expect(answers == ["198.51.100.1", "198.51.100.2", "127.0.0.1", "127.0.0.1"])
        await server.shutdown(deadline: .zero)
    }
}
