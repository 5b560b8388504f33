import Foundation

extension MessengerClient {
    /// Encrypts and uploads a file with `AttachmentUploader` (a fresh key per file, the server's
    /// resumable upload), then sends its pointer inside the text's end-to-end encrypted content:
    /// the server keeps only ciphertext and never sees the key.
    ///
    /// ```swift
    /// let message = try await client.send(
    ///     attachment: photo, contentType: "image/jpeg", fileName: "cat.jpg", caption: "look", to: bob)
    /// // on Bob's device: message.attachment is the pointer
    /// let photo = try await bobClient.download(message.attachment!)
    /// ```
    /// - Parameters:
    ///   - attachment: the file's bytes.
    ///   - contentType: the MIME type shown to the recipient.
    ///   - fileName: the name shown to the recipient, if any.
    ///   - caption: the message's text (may be empty).
    /// - Returns: the stored message, `sent`, with the pointer.
    /// - Throws: `AttachmentError` when the upload fails (nothing is stored then);
    ///   `MessengerClientError` as for `send(text:to:)`.
    @discardableResult
    public func send(
        attachment: Data, contentType: String, fileName: String? = nil, caption: String = "", to account: String
    ) async throws -> Message {
        let pointer = try await uploader.upload(Array(attachment), contentType: contentType, fileName: fileName)
        return try await send(text: caption, attachment: pointer, to: account)
    }

    /// Downloads and opens the attachment a message points to with `AttachmentDownloader`: the
    /// blob's length and SHA-256 are checked against the pointer before the key touches it, then
    /// its MAC.
    /// - Returns: the file's bytes.
    /// - Throws: `AttachmentError` (`.notFound`, `.sizeMismatch`, `.digestMismatch`, `.integrity`,
    ///   `.transport`, `.server`).
    public nonisolated func download(_ pointer: AttachmentPointer) async throws -> Data {
        Data(try await AttachmentDownloader(baseURL: configuration.serverURL, client: api.client).download(pointer))
    }

    /// This device's uploader: its credentials, the configuration's clock for the retry backoff.
    nonisolated var uploader: AttachmentUploader {
        AttachmentUploader(
            configuration: AttachmentTransferConfiguration(
                baseURL: configuration.serverURL, accountId: credentials.accountId, deviceId: Int(credentials.deviceId),
                password: credentials.password),
            client: api.client, clock: clock)
    }
}
