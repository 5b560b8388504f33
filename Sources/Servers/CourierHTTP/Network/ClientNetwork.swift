extension IPAddress {
    /// The bits an ISP hands one subscriber at the least: an IPv6 client may use any address of
    /// its `/64` (privacy addresses change daily; a host can take thousands), so per-client
    /// limits count the `/64`, not the address. An IPv4 address is one subscriber's (or more).
    public static let subscriberPrefixLength = 64

    /// The range one client is counted by: the address itself for IPv4 (and IPv4-mapped IPv6);
    /// the IPv4 address an IPv6 address carries for NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`:
    /// behind a translator every IPv4 client has one, and their `/64` is shared by all), 6to4
    /// (`2002::/16`: one IPv4 site has a whole `/48`) and Teredo (`2001::/32`: the client's
    /// public IPv4, not its relay's `/64`); the `/64` for any other IPv6 address.
    public var subscriberNetwork: IPNetwork {
        if ipv4 != nil { return IPNetwork(self, prefixLength: 128) }
        if let carried = carriedIPv4 { return IPNetwork(IPAddress(ipv4: carried), prefixLength: 128) }
        return IPNetwork(self, prefixLength: Self.subscriberPrefixLength)
    }

    /// The IPv4 client address inside a NAT64, 6to4 or Teredo address.
    private var carriedIPv4: UInt32? {
        let low32 = UInt32(truncatingIfNeeded: low)
        switch high {
        // 64:ff9b::/96 (RFC 6052), the address in the last 32 bits.
        case 0x0064_FF9B_0000_0000 where low >> 32 == 0: return low32
        // 64:ff9b:1::/48 (RFC 8215), most often used as a /96 the same way.
        case _ where high >> 16 == 0x0064_FF9B_0001: return low32
        // 6to4, 2002:AABB:CCDD::/48 (RFC 3056).
        case _ where high >> 48 == 0x2002: return UInt32(truncatingIfNeeded: high >> 16)
        // Teredo, 2001:0::/32 (RFC 4380): the client's public address, every bit inverted.
        case _ where high >> 32 == 0x2001_0000: return ~low32
        default: return nil
        }
    }
}

extension HTTPRequest {
    /// The client as per-client limits should count it (`IPAddress.subscriberNetwork`): an IPv4
    /// address as `remoteAddress` says it, the IPv4 address an IPv6 translation or tunnel
    /// address carries, and otherwise an IPv6 client's `/64` (`2001:db8:1:2::/64`), so rotating
    /// through the addresses of one subscriber's network does not buy fresh buckets. The text as
    /// it is when the address does not parse (a test's made-up peer).
    public var clientNetwork: String {
        guard let address = IPAddress(remoteAddress) else { return remoteAddress }
        let network = address.subscriberNetwork
        return network.address.ipv4 != nil ? network.address.description : network.description
    }
}
