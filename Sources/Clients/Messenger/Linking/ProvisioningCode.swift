import CourierCore
import Foundation
import SignalProtocol

/// What a device being linked shows, as text or a QR code, and a device of the account reads:
/// the server's provisioning address of the new device's socket and the new device's ephemeral
/// public key, as Signal's `sgnl://linkdevice?uuid=…&pub_key=…`.
///
/// ```swift
/// let code = try ProvisioningCode(parsing: "courier-link://?uuid=5f0c…&pub_key=BQ…")
/// try await phone.provision(code)
/// ```
public struct ProvisioningCode: Sendable, Equatable, CustomStringConvertible {
    /// The URI's scheme.
    public static let scheme = "courier-link"

    /// The provisioning socket's address on the server.
    public let address: String
    /// The new device's ephemeral public key: the provision is sealed to it.
    public let publicKey: PublicKey

    /// Creates a code.
    public init(address: String, publicKey: PublicKey) {
        self.address = address
        self.publicKey = publicKey
    }

    /// Reads `courier-link://?uuid=ADDRESS&pub_key=BASE64URL` (surrounding spaces are ignored).
    /// - Throws: `MessengerClientError` `.invalidArgument`, saying what is wrong.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: trimmed), components.scheme == Self.scheme else {
            throw MessengerClientError(.invalidArgument, "a provisioning code starts with \(Self.scheme)://")
        }
        let items = components.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let address = value("uuid"), !address.isEmpty, address.utf8.count <= 128,
            address.utf8.allSatisfy(Self.isAddressByte)
        else { throw MessengerClientError(.invalidArgument, "the provisioning code has no address (uuid=)") }
        guard let bytes = value("pub_key").flatMap(Base64.decodeURL), let key = try? PublicKey(serialized: bytes) else {
            throw MessengerClientError(.invalidArgument, "the provisioning code has no valid public key (pub_key=)")
        }
        self.init(address: address, publicKey: key)
    }

    /// Letters, digits, `-` and `_`: an address goes into a path and a URI as it is.
    private static func isAddressByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// `courier-link://?uuid=ADDRESS&pub_key=BASE64URL`.
    public var uri: String {
        "\(Self.scheme)://?uuid=\(address)&pub_key=\(Base64.encodeURL(publicKey.serialized))"
    }

    /// The URI.
    public var description: String { uri }
}
