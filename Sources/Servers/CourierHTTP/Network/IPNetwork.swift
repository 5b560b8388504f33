/// A range of addresses in CIDR notation: `127.0.0.0/8`, `::1/128`, `10.1.2.3` (one address).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the range.
    public let address: IPAddress
    /// The length of the common prefix, counted over the 128 bits of the IPv6 form (an IPv4
    /// `/8` is 104 here).
    package let prefixLength: Int

    /// Parses `address/prefix` or a lone address; IPv4 prefixes are 0–32, IPv6 0–128.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let address = IPAddress(String(first)) else { return nil }
        let isIPv4 = !first.contains(":")
        var length = isIPv4 ? 32 : 128
        if parts.count == 2 {
            guard let given = Int(parts[1]), given >= 0, given <= length else { return nil }
            length = given
        }
        self.init(address, prefixLength: isIPv4 ? length + 96 : length)
    }

    /// A network from an address and a prefix length over 128 bits.
    package init(_ address: IPAddress, prefixLength: Int) {
        self.prefixLength = max(0, min(128, prefixLength))
        let (high, low) = Self.mask(self.prefixLength)
        self.address = IPAddress(high: address.high & high, low: address.low & low)
    }

    /// Whether `candidate` is in the range.
    public func contains(_ candidate: IPAddress) -> Bool {
        let (high, low) = Self.mask(prefixLength)
        return candidate.high & high == address.high && candidate.low & low == address.low
    }

    /// `address/prefix`, with IPv4 prefixes counted over 32 bits.
    public var description: String {
        address.ipv4 != nil && prefixLength >= 96 ? "\(address)/\(prefixLength - 96)" : "\(address)/\(prefixLength)"
    }

    private static func mask(_ length: Int) -> (UInt64, UInt64) {
        let high: UInt64 = length >= 64 ? .max : (length == 0 ? 0 : .max << UInt64(64 - length))
        let low: UInt64 = length <= 64 ? 0 : (length >= 128 ? .max : .max << UInt64(128 - length))
        return (high, low)
    }
}
