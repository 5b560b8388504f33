import CourierCore
import CourierHTTP
import CourierTesting
import Testing

/// Per-client limits behind a proxy: `X-Forwarded-For` names the client only on a connection
/// from a configured proxy (the right-most address that is not one); anyone else is limited by
/// its own address whatever it claims.
struct TrustedProxyTests {
    /// A one-request-per-client limit in front of a route that echoes the client's address.
    static func client(trusting proxies: [String]) -> RouterTestClient {
        var router = Router()
        router.add("GET", "/whoami") { request in .json(["client": .string(request.remoteAddress)]) }
        var configuration = HTTPServerConfiguration()
        configuration.trustedProxies = proxies.compactMap(IPNetwork.init)
        let limiter = RateLimiter(perSecond: 0.001, burst: 1, clock: ManualClock())
        return RouterTestClient(
            router: router, configuration: configuration, middleware: [RateLimitMiddleware(limiter)])
    }

    static func get(_ client: RouterTestClient, from peer: String, forwardedFor: String?) async throws -> HTTPResponse {
        try await client.execute(
            "GET", "/whoami", headers: forwardedFor.map { ["X-Forwarded-For": $0] } ?? [:], remoteAddress: peer)
    }

    @Test func aSpoofedForwardedForFromAnUntrustedPeerIsIgnored() async throws {
        let client = Self.client(trusting: ["10.0.0.0/8"])
        let first = try await Self.get(client, from: "203.0.113.7", forwardedFor: "198.51.100.1")
        #expect(first.jsonBody?["client"] == "203.0.113.7")
        let second = try await Self.get(client, from: "203.0.113.7", forwardedFor: "198.51.100.2")
        #expect(second.status == 429)
    }

    @Test func fromATrustedProxyEachForwardedClientIsLimitedSeparately() async throws {
        let client = Self.client(trusting: ["127.0.0.1"])
        let first = try await Self.get(client, from: "127.0.0.1", forwardedFor: "198.51.100.1")
        #expect(first.status == 200)
        #expect(first.jsonBody?["client"] == "198.51.100.1")
        let other = try await Self.get(client, from: "127.0.0.1", forwardedFor: "198.51.100.2")
        #expect(other.status == 200)
        let again = try await Self.get(client, from: "127.0.0.1", forwardedFor: "198.51.100.1")
        #expect(again.status == 429)
    }

    @Test(arguments: [
        ("198.51.100.9, 10.1.2.3", "198.51.100.9"),  // b is a trusted proxy: a is the client
        ("6.6.6.6, 198.51.100.9, 10.1.2.3", "198.51.100.9"),  // left of the first untrusted hop is forgeable
        ("10.9.9.9, 10.1.2.3", "10.9.9.9"),  // every hop trusted: the left-most
        ("not-an-address", "127.0.0.1"),  // nothing usable: the proxy itself
        ("::ffff:198.51.100.9", "198.51.100.9"),
    ])
    func aChainIsReadFromTheRightUpToTheFirstUntrustedAddress(header: String, client: String) async throws {
        let server = Self.client(trusting: ["127.0.0.1", "10.0.0.0/8"])
        let answer = try await Self.get(server, from: "127.0.0.1", forwardedFor: header)
        #expect(answer.jsonBody?["client"]?.stringValue == client)
    }

    @Test func withoutTrustedProxiesTheHeaderIsIgnored() async throws {
        let answer = try await Self.get(Self.client(trusting: []), from: "127.0.0.1", forwardedFor: "198.51.100.1")
        #expect(answer.jsonBody?["client"] == "127.0.0.1")
    }
}
