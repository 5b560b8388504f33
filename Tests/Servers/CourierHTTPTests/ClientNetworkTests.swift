import CourierCore
import CourierHTTP
import CourierTesting
import Testing

/// Per-client limits count an IPv6 client by its `/64`: a host may take any address of its
/// subscriber network, so keying by the address gave every request a fresh bucket. Addresses
/// that carry an IPv4 client (NAT64, 6to4, Teredo) count that client.
struct ClientNetworkTests {
    @Test(arguments: [
        ("198.51.100.7", "198.51.100.7"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("[2001:DB8:1:2::9]", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::1", "::/64"),
        // NAT64, well-known and local-use: the IPv4 client the translator stands for.
        ("64:ff9b::198.51.100.7", "198.51.100.7"), ("64:ff9b::c633:6408", "198.51.100.8"),
        ("64:ff9b:1::198.51.100.7", "198.51.100.7"),
        // 6to4: the IPv4 site, whatever address of its /48.
        ("2002:c633:6407::1", "198.51.100.7"), ("2002:c633:6407:5:6:7:8:9", "198.51.100.7"),
        // Teredo: the client's public IPv4 (inverted in the last 32 bits), not its relay's /64.
        ("2001:0:4136:e378:8000:63bf:39cc:9bf8", "198.51.100.7"),
        ("2001:0:4136:e378:8000:63bf:39cc:9bf7", "198.51.100.8"),
        // Near misses are plain IPv6.
        ("64:ff9b::1:198.51.100.7", "64:ff9b::/64"), ("2001:db8::1", "2001:db8::/64"),
        ("not-an-address", "not-an-address"),
    ])
    func theClientNetworkIsTheAddressForIPv4AndTheSlash64ForIPv6(address: String, network: String) {
        #expect(HTTPRequest(method: "GET", path: "/", remoteAddress: address).clientNetwork == network)
    }

    /// The default `RateLimitMiddleware` key: two addresses of one `/64` share a bucket, a
    /// neighbouring `/64` has its own.
    @Test func theRateLimitMiddlewareCountsAnIPv6ClientByItsSlash64() async throws {
        var router = Router()
        router.add("GET", "/") { _ in .text("ok") }
        let limiter = RateLimiter(perSecond: 0.001, burst: 1, clock: ManualClock())
        let client = RouterTestClient(router: router, middleware: [RateLimitMiddleware(limiter)])
        func status(from address: String) async throws -> HTTPStatus {
            try await client.execute("GET", "/", remoteAddress: address).status
        }
        #expect(try await status(from: "2001:db8:1:2::1") == 200)
        #expect(try await status(from: "2001:db8:1:2::2") == 429)
        #expect(try await status(from: "2001:db8:1:2:a:b:c:d") == 429)
        #expect(try await status(from: "2001:db8:1:3::1") == 200)
        #expect(try await status(from: "198.51.100.1") == 200)
        #expect(try await status(from: "198.51.100.2") == 200)
    }
}
