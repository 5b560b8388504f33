import CourierCore
import Foundation
import CourierHTTPClient
import SignalProtocol

/// What a message carries so its recipient can fetch and open one attachment: the blob's id on
/// the server, the 64-byte key, the SHA-256 of the encrypted blob, the plaintext size, the
/// content type and, optionally, a file name. It travels only inside end-to-end encrypted
/// messages; the server never sees it.
///
/// JSON: `{"id": "…", "key": "<base64>", "digest": "<base64>", "size": 1234,
/// "contentType": "image/jpeg", "fileName": "cat.jpg"}`.
public struct AttachmentPointer: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The server's id (64 lowercase hex characters).
    public let id: String
    /// AES-256 key followed by the HMAC-SHA256 key.
    public let key: SecretBytes
    /// SHA-256 of the encrypted blob.
    public let digest: [UInt8]
    /// The plaintext length in bytes.
    public let size: Int
    /// The MIME type the sender declared.
    public let contentType: String
    /// The original file name, if the sender shared it.
    public let fileName: String?

    /// Creates a pointer.
    /// - Throws: `AttachmentError.invalidPointer` when a field cannot belong to a real attachment.
    public init(
        id: String, key: SecretBytes, digest: [UInt8], size: Int, contentType: String, fileName: String? = nil
    ) throws(AttachmentError) {
        self.id = id
        self.key = key
        self.digest = digest
        self.size = size
        self.contentType = contentType
        self.fileName = fileName
        try validate()
    }

    private enum CodingKeys: String, CodingKey {
        case id, key, digest, size, contentType, fileName
    }

    /// Decodes a pointer from a received message, refusing malformed fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        guard let key = Base64.decode(try container.decode(String.self, forKey: .key)),
            let digest = Base64.decode(try container.decode(String.self, forKey: .digest))
        else { throw AttachmentError(.invalidPointer, "key and digest must be base64") }
        self.key = SecretBytes(key)
        self.digest = digest
        size = try container.decode(Int.self, forKey: .size)
        contentType = try container.decode(String.self, forKey: .contentType)
        fileName = try container.decodeIfPresent(String.self, forKey: .fileName)
        try validate()
    }

    /// Encodes the pointer for a message body.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(key.withUnsafeBytes { Base64.encode(Array($0)) }, forKey: .key)
        try container.encode(Base64.encode(digest), forKey: .digest)
        try container.encode(size, forKey: .size)
        try container.encode(contentType, forKey: .contentType)
        try container.encodeIfPresent(fileName, forKey: .fileName)
    }

    /// The pointer as it travels inside a text's content and is kept in the message store: its
    /// JSON.
    /// - Throws: `AttachmentError.invalidPointer` (not expected for a pointer that was built).
    public func encoded() throws(AttachmentError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(self))
        } catch {
            throw AttachmentError(.invalidPointer, "cannot encode the pointer", underlying: error)
        }
    }

    /// Decodes a pointer from its JSON (`encoded()`), with every field checked.
    /// - Throws: `AttachmentError.invalidPointer`.
    public init(encoded bytes: [UInt8]) throws(AttachmentError) {
        do {
            self = try JSONDecoder().decode(AttachmentPointer.self, from: Data(bytes))
        } catch let error as AttachmentError {
            throw error
        } catch {
            throw AttachmentError(.invalidPointer, "the pointer is not valid JSON", underlying: error)
        }
    }

    /// The encrypted blob's exact length on the server.
    public var encryptedLength: Int { AttachmentCipher.encryptedLength(forPlaintextLength: size) }

    /// Everything but the key.
    public var description: String {
        "AttachmentPointer(id: \(id), size: \(size), contentType: \(contentType))"
    }

    private func validate() throws(AttachmentError) {
        guard Self.isServerId(id) else { throw AttachmentError(.invalidPointer, "the id is not a server id") }
        guard key.count == AttachmentCipher.keyLength else {
            throw AttachmentError(.invalidPointer, "the key must be \(AttachmentCipher.keyLength) bytes")
        }
        guard digest.count == AttachmentCipher.digestLength else {
            throw AttachmentError(.invalidPointer, "the digest must be \(AttachmentCipher.digestLength) bytes")
        }
        guard size >= 0, size <= 1 << 40 else { throw AttachmentError(.invalidPointer, "size out of range") }
        guard contentType.utf8.count <= 255 else { throw AttachmentError(.invalidPointer, "content type too long") }
    }

    /// 64 lowercase hex characters, as the server hands out (and nothing a URL path could abuse).
    static func isServerId(_ id: String) -> Bool {
        id.utf8.count == 64 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
