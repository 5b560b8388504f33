import CourierHTTP
import Foundation

/// Which addresses webhook pushes may reach. A device names its webhook, so without a policy it
/// could make the server POST into the server's own network (server-side request forgery): the
/// cloud metadata service at `169.254.169.254`, an admin port on loopback, a neighbour on a
/// private network.
///
/// By default only public addresses are reached. Refused: unspecified (`0.0.0.0/8`, `::`),
/// loopback (`127.0.0.0/8`, `::1`), private (RFC 1918, `100.64.0.0/10`, `fc00::/7`, `fec0::/10`),
/// link-local (`169.254.0.0/16`, `fe80::/10`), multicast (`224.0.0.0/4`, `ff00::/8`) and
/// reserved ranges, and all of these inside IPv6 forms that carry an IPv4 address (IPv4-mapped
/// `::ffff:0:0/96`, IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`; Teredo
/// `2001::/32` is refused whole). `allowedNetworks` opens ranges on purpose: a test listener on
/// loopback, a push gateway on the LAN.
///
/// The policy is applied twice: to an address literal when a device registers its webhook (400),
/// and to every address the push actually connects to, after DNS resolution, so a name that
/// resolves to a refused address (or is rebound to one later) gets no connection either.
///
/// ```swift
/// var configuration = MessengerConfiguration()
/// configuration.webhookAddresses = WebhookAddressPolicy(allowedNetworks: [IPNetwork("10.8.0.0/16")!])
/// let sender = WebhookPushSender(addresses: configuration.webhookAddresses)
/// ```
public struct WebhookAddressPolicy: Sendable, Hashable {
    /// What an address is, as far as the policy cares.
    public enum Scope: String, Sendable {
        /// Routable on the internet: allowed.
        case global
        /// `0.0.0.0/8` or `::`: on Linux a connection to it reaches the host itself.
        case unspecified
        /// `127.0.0.0/8` or `::1`.
        case loopback
        /// RFC 1918, carrier NAT (`100.64.0.0/10`), unique local (`fc00::/7`) and the like.
        case `private`
        /// `169.254.0.0/16` (cloud metadata services) or `fe80::/10`.
        case linkLocal = "link-local"
        /// `224.0.0.0/4` or `ff00::/8`.
        case multicast
        /// Not assigned for use on the internet (`240.0.0.0/4`, benchmarking, Teredo, …).
        case reserved
    }

    /// Ranges reached even though their scope is refused.
    public var allowedNetworks: [IPNetwork]

    /// Creates a policy that reaches public addresses and `allowedNetworks`.
    public init(allowedNetworks: [IPNetwork] = []) {
        self.allowedNetworks = allowedNetworks
    }

    /// A policy that also reaches loopback (`127.0.0.0/8`, `::1`): for tests and local development.
    public static var allowingLoopback: WebhookAddressPolicy {
        let ipv4Loopback = IPNetwork(IPAddress(ipv4: 0x7F00_0000), prefixLength: 104)
        return WebhookAddressPolicy(allowedNetworks: [ipv4Loopback, ipv6Loopback])
    }

    /// Whether a connection to `address` is allowed.
    public func permits(_ address: IPAddress) -> Bool {
        Self.scope(of: address) == .global || allowedNetworks.contains { $0.contains(address) }
    }

    /// Why a webhook URL must be refused at registration, or `nil`. Its host is refused when it
    /// is an address literal the policy does not permit, or a `localhost` name (which resolves to
    /// loopback); other names are checked when the push connects.
    public func refusal(forHost host: String) -> String? {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let address: IPAddress
        if let literal = IPAddress(name) {
            address = literal
        } else if name == "localhost" || name.hasSuffix(".localhost") {
            address = IPAddress(ipv4: 0x7F00_0001)
        } else {
            return nil
        }
        guard !permits(address) else { return nil }
        return "a webhook address may not be \(Self.scope(of: address).rawValue) (\(address))"
    }

    /// The scope of an address.
    public static func scope(of address: IPAddress) -> Scope {
        if let v4 = address.ipv4 { return scope(ipv4: v4) }
        let (high, low) = (address.high, address.low)
        if high == 0 && low == 0 { return .unspecified }
        if high == 0 && low == 1 { return .loopback }
        // IPv4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
        if high == 0 && low >> 32 == 0 { return scope(ipv4: UInt32(truncatingIfNeeded: low)) }
        if high == 0x0064_FF9B_0000_0000 && low >> 32 == 0 { return scope(ipv4: UInt32(truncatingIfNeeded: low)) }
        if high == 0 { return .reserved }  // the rest of ::/64 (IPv4-translated and unassigned)
        // 6to4: 2002:aabb:ccdd::/48 stands for a.b.c.d.
        if high >> 48 == 0x2002 { return scope(ipv4: UInt32(truncatingIfNeeded: high >> 16)) }
        if high >> 32 == 0x2001_0000 { return .reserved }  // Teredo: its IPv4 address is obfuscated.
        if high >> 16 == 0x0064_FF9B_0001 { return .private }  // local-use NAT64
        if high == 0x0100_0000_0000_0000 { return .reserved }  // discard-only 100::/64
        if high >> 56 == 0xFF { return .multicast }
        if high >> 54 == 0xFE80 >> 6 { return .linkLocal }
        if high >> 54 == 0xFEC0 >> 6 { return .private }  // site-local, deprecated
        if high >> 57 == 0xFC >> 1 { return .private }  // unique local fc00::/7
        return .global
    }

    /// The scope of an IPv4 address (host order).
    static func scope(ipv4 v4: UInt32) -> Scope {
        func within(_ network: UInt32, _ length: UInt32) -> Bool { v4 >> (32 - length) == network >> (32 - length) }
        if within(0x0000_0000, 8) { return .unspecified }  // 0.0.0.0/8, "this network"
        if within(0x7F00_0000, 8) { return .loopback }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return .private }
        if within(0x6440_0000, 10) { return .private }  // shared address space (carrier NAT)
        if within(0xA9FE_0000, 16) { return .linkLocal }
        if within(0xE000_0000, 4) { return .multicast }
        if within(0xF000_0000, 4) { return .reserved }  // 240.0.0.0/4 and the broadcast address
        if within(0xC000_0000, 24) || within(0xC612_0000, 15) { return .reserved }  // IETF, benchmarking
        return .global
    }

    private static let ipv6Loopback = IPNetwork(IPAddress(high: 0, low: 1), prefixLength: 128)
}
