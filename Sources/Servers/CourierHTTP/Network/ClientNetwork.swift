extension IPAddress {
    /// The bits an ISP hands one subscriber at the least: an IPv6 client may use any address of
    /// its `/64` (privacy addresses change daily; a host can take thousands), so per-client
    /// limits count the `/64`, not the address. An IPv4 address is one subscriber's (or more).
    public static let subscriberPrefixLength = 64

    /// The range one client is counted by: the address itself for IPv4 (and IPv4-mapped IPv6),
    /// its `/64` for IPv6.
    public var subscriberNetwork: IPNetwork {
        IPNetwork(self, prefixLength: ipv4 != nil ? 128 : Self.subscriberPrefixLength)
    }
}

extension HTTPRequest {
    /// The client as per-client limits should count it: `remoteAddress` for an IPv4 client,
    /// its `/64` (`2001:db8:1:2::/64`) for an IPv6 one, so rotating through the addresses of one
    /// subscriber's network does not buy fresh buckets. The text as it is when the address does
    /// not parse (a test's made-up peer).
    public var clientNetwork: String {
        guard let address = IPAddress(remoteAddress) else { return remoteAddress }
        return address.ipv4 != nil ? address.description : address.subscriberNetwork.description
    }
}
