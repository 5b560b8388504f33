import Foundation

/// An IPv4 or IPv6 address. IPv4 is kept in its IPv4-mapped IPv6 form (`::ffff:a.b.c.d`), so one
/// comparison covers an address and its mapped spelling.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The 128 bits, most significant first.
    package let high: UInt64
    /// The low 64 bits.
    package let low: UInt64

    /// An address from its two halves.
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An IPv4 address from its 32 bits (host order).
    package init(ipv4: UInt32) {
        self.init(high: 0, low: 0x0000_FFFF_0000_0000 | UInt64(ipv4))
    }

    /// An address from its 16 bytes in network order.
    package init<Bytes: Collection<UInt8>>(bytes: Bytes) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.prefix(16).enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high, low: low)
    }

    /// Parses a literal as the resolver would: IPv6 (in brackets or not, a `%zone` ignored), or
    /// IPv4 in every form `inet_aton` reads (`127.0.0.1`, `127.1`, `2130706433`, `0x7f.0.0.1`).
    /// `nil` for anything else, host names included.
    public init?(_ text: String) {
        var literal = Substring(text)
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        if literal.contains(":") {
            if let zone = literal.firstIndex(of: "%") { literal = literal[..<zone] }
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(literal), &address) == 1 else { return nil }
            self.init(bytes: withUnsafeBytes(of: &address) { Array($0) })
            return
        }
        guard literal.first?.isNumber == true else { return nil }
        var address = in_addr()
        guard inet_aton(String(literal), &address) != 0 else { return nil }
        self.init(ipv4: UInt32(bigEndian: address.s_addr))
    }

    /// The address a socket address holds (`AF_INET` or `AF_INET6`), or `nil` for another family.
    package init?(socketAddress: UnsafeRawPointer) {
        let family = socketAddress.load(as: sockaddr.self).sa_family
        switch Int32(family) {
        case AF_INET:
            let address = socketAddress.loadUnaligned(as: sockaddr_in.self)
            self.init(ipv4: UInt32(bigEndian: address.sin_addr.s_addr))
        case AF_INET6:
            var address = socketAddress.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            self.init(bytes: withUnsafeBytes(of: &address) { Array($0) })
        default:
            return nil
        }
    }

    /// The IPv4 address when this is one (IPv4-mapped), else `nil`.
    public var ipv4: UInt32? {
        high == 0 && low >> 32 == 0xFFFF ? UInt32(truncatingIfNeeded: low) : nil
    }

    /// Dotted quad for IPv4, the usual IPv6 text otherwise.
    public var description: String {
        if let v4 = ipv4 { return "\(v4 >> 24).\(v4 >> 16 & 0xFF).\(v4 >> 8 & 0xFF).\(v4 & 0xFF)" }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { raw in
            for index in 0..<8 {
                raw[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
                raw[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
            }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
