import CourierHTTP
import MessengerServer
import Testing

/// Address scopes and allow-list networks, without a server.
struct WebhookAddressPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", WebhookAddressPolicy.Scope.loopback), ("::1", .loopback), ("0.0.0.0", .unspecified),
        ("::", .unspecified), ("10.0.0.1", .private), ("172.31.255.255", .private), ("172.32.0.1", .global),
        ("192.168.0.1", .private), ("100.64.1.1", .private), ("169.254.169.254", .linkLocal),
        ("fe80::1", .linkLocal), ("fd00::1", .private), ("fc00::1", .private), ("fec0::1", .private),
        ("224.0.0.251", .multicast), ("ff02::fb", .multicast), ("240.0.0.1", .reserved),
        ("255.255.255.255", .reserved), ("::ffff:10.0.0.1", .private), ("::ffff:8.8.8.8", .global),
        ("::127.0.0.1", .loopback), ("::ffff:0:7f00:1", .reserved), ("64:ff9b::a9fe:a9fe", .linkLocal),
        ("64:ff9b::808:808", .global), ("2002:c0a8:101::1", .private), ("2001:0:4136:e378::1", .reserved),
        ("8.8.8.8", .global), ("2606:4700:4700::1111", .global), ("017700000001", .loopback),
    ])
    func scopes(address: String, scope: WebhookAddressPolicy.Scope) throws {
        let parsed = try #require(IPAddress(address))
        #expect(WebhookAddressPolicy.scope(of: parsed) == scope)
        #expect(WebhookAddressPolicy().permits(parsed) == (scope == .global))
    }

    @Test func networksParseAndContain() throws {
        let v4 = try #require(IPNetwork("127.0.0.0/8"))
        #expect(v4.description == "127.0.0.0/8")
        #expect(v4.contains(try #require(IPAddress("127.255.0.1"))))
        #expect(v4.contains(try #require(IPAddress("::ffff:127.0.0.2"))))
        #expect(!v4.contains(try #require(IPAddress("128.0.0.1"))))
        let v6 = try #require(IPNetwork("fd00::/8"))
        #expect(v6.contains(try #require(IPAddress("fd12:3456::1"))))
        #expect(!v6.contains(try #require(IPAddress("fe00::1"))))
        #expect(IPNetwork("10.0.0.1")?.description == "10.0.0.1/32")
        for bad in ["10.0.0.0/33", "::/129", "example.com/8", "10.0.0.0/-1", "10.0.0.0/x", ""] {
            #expect(IPNetwork(bad) == nil, "\(bad)")
        }
        let policy = WebhookAddressPolicy(allowedNetworks: [v4])
        #expect(policy.permits(try #require(IPAddress("127.0.0.1"))))
        #expect(!policy.permits(try #require(IPAddress("::1"))))
        #expect(WebhookAddressPolicy.allowingLoopback.permits(try #require(IPAddress("::1"))))
        #expect(!WebhookAddressPolicy.allowingLoopback.permits(try #require(IPAddress("10.0.0.1"))))
    }
}
