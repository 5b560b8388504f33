import CourierCore
import CourierHTTPClient
import SignalProtocol

/// Fetches an attachment's ciphertext with `GET /v1/attachments/{id}` and opens it only after
/// the blob has the pointer's exact length and hashes to the pointer's digest: a swapped,
/// truncated or tampered file is refused before any key touches it.
///
/// ```swift
/// let downloader = AttachmentDownloader(baseURL: "http://127.0.0.1:8080")
/// let photo = try await downloader.download(pointer)  // pointer from a decrypted message
/// ```
public final class AttachmentDownloader: Sendable {
    private let baseURL: String
    private let client: HTTPClient

    /// Creates a downloader; downloads need no credentials (ids are unguessable).
    /// - Parameters:
    ///   - baseURL: the messenger server, no trailing slash.
    ///   - client: the HTTP client. A download is one request for the whole blob and the client's
    ///     timeout bounds all of it, so the default allows 5 minutes (100 MiB at 2.8 Mbit/s).
    public init(baseURL: String, client: HTTPClient = HTTPClient(timeout: .seconds(300))) {
        self.baseURL = baseURL
        self.client = client
    }

    /// Downloads, checks and decrypts the attachment `pointer` names.
    /// - Returns: the plaintext, `pointer.size` bytes.
    /// - Throws: `AttachmentError`: `.notFound` (unknown, expired or incomplete), `.sizeMismatch`,
    ///   `.digestMismatch`, `.integrity` (MAC or padding), `.transport`, `.server`.
    public func download(_ pointer: AttachmentPointer) async throws(AttachmentError) -> [UInt8] {
        let blob = try await fetch(id: pointer.id)
        return try Self.open(blob, pointer: pointer)
    }

    /// Fetches the raw blob `id`.
    /// - Throws: as `download`.
    package func fetch(id: String) async throws(AttachmentError) -> [UInt8] {
        guard AttachmentPointer.isServerId(id) else { throw AttachmentError(.invalidPointer, "not a server id") }
        let response: HTTPClientResponse
        do {
            response = try await client.send("GET", baseURL + "/v1/attachments/\(id)")
        } catch {
            throw AttachmentError(.transport, "GET /v1/attachments failed: \(error)", underlying: error)
        }
        switch response.status {
        case 200: return response.body
        case 404: throw AttachmentError(.notFound, "no such attachment (unknown, expired or incomplete)", status: 404)
        default: throw AttachmentUploader.unexpected(response)
        }
    }

    /// Checks the length, then the digest, then the MAC, and only then decrypts.
    /// `AttachmentCipher.decrypt` checks the digest before its MAC and before any AES; the digest
    /// is hashed again only to name a failure, so a good blob is hashed once.
    /// - Throws: `.sizeMismatch`, `.digestMismatch`, `.integrity`.
    static func open(_ blob: [UInt8], pointer: AttachmentPointer) throws(AttachmentError) -> [UInt8] {
        guard blob.count == pointer.encryptedLength else {
            throw AttachmentError(
                .sizeMismatch, "the blob has \(blob.count) bytes, the pointer promises \(pointer.encryptedLength)")
        }
        do {
            return try AttachmentCipher.decrypt(
                blob, key: pointer.key, digest: pointer.digest, plaintextLength: pointer.size)
        } catch {
            guard AttachmentCipher.digestMatches(blob, pointer.digest) else {
                throw AttachmentError(.digestMismatch, "the blob does not match the pointer's digest")
            }
            throw AttachmentError(.integrity, "the blob does not open with the pointer's key", underlying: error)
        }
    }
}
