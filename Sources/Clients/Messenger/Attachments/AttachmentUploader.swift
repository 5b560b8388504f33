import CourierCore
import CourierHTTPClient
import SignalProtocol

/// Encrypts a file with a fresh key and uploads the ciphertext with the server's resumable
/// protocol: `POST /v1/attachments {"length": N}` for an id, then `PUT /v1/attachments/{id}`
/// pieces with `Content-Range: bytes S-E/N`, each answered 308 with the `Range` held so far
/// until the last answers 200. After a broken connection it asks `Content-Range: bytes */N`
/// and goes on from the offset the server reports.
///
/// ```swift
/// let uploader = AttachmentUploader(configuration: .init(
///     baseURL: "http://127.0.0.1:8080", accountId: account, deviceId: 1, password: password))
/// let pointer = try await uploader.upload(photo, contentType: "image/jpeg", fileName: "cat.jpg")
/// // send `pointer` inside the end-to-end encrypted message
/// ```
public final class AttachmentUploader: Sendable {
    private let configuration: AttachmentTransferConfiguration
    private let client: HTTPClient
    private let clock: any Clock

    /// Creates an uploader.
    /// - Parameters:
    ///   - configuration: server, credentials, piece size, retries.
    ///   - client: the HTTP client (one per app keeps connections alive).
    ///   - clock: sleeps between retries.
    public init(
        configuration: AttachmentTransferConfiguration, client: HTTPClient = HTTPClient(),
        clock: any Clock = SystemClock()
    ) {
        self.configuration = configuration
        self.client = client
        self.clock = clock
    }

    /// Encrypts and uploads `plaintext`.
    /// - Parameters:
    ///   - plaintext: the file's bytes.
    ///   - contentType: the MIME type to declare to the recipient.
    ///   - fileName: the name to show the recipient, if any.
    ///   - progress: called after each confirmed piece and each resume, before the next request.
    /// - Returns: the pointer to send inside the encrypted message.
    /// - Throws: `AttachmentError`: `.tooLarge` (413), `.unauthorized`, `.notFound` when the
    ///   server dropped the unfinished upload, `.transport` after
    ///   `maximumRetries` failed connections, `.server` for anything else unexpected.
    public func upload(
        _ plaintext: [UInt8], contentType: String, fileName: String? = nil,
        progress: @Sendable (AttachmentUploadProgress) async -> Void = { _ in }
    ) async throws(AttachmentError) -> AttachmentPointer {
        let key: SecretBytes
        let sealed: AttachmentCipher.Sealed
        do {
            key = try AttachmentCipher.generateKey()
            sealed = try AttachmentCipher.encrypt(plaintext, key: key)
        } catch {
            throw AttachmentError(.server, "cannot encrypt the attachment", underlying: error)
        }
        let id = try await create(length: sealed.blob.count)
        try await send(sealed.blob, id: id, progress: progress)
        return try AttachmentPointer(
            id: id, key: key, digest: sealed.digest, size: sealed.plaintextLength, contentType: contentType,
            fileName: fileName)
    }

    /// Uploads bytes as they are, with no encryption: the baseline the benchmark compares with.
    /// - Returns: the server's id.
    /// - Throws: as `upload`.
    package func uploadUnencrypted(
        _ blob: [UInt8], progress: @Sendable (AttachmentUploadProgress) async -> Void = { _ in }
    ) async throws(AttachmentError) -> String {
        let id = try await create(length: blob.count)
        try await send(blob, id: id, progress: progress)
        return id
    }

    private func create(length: Int) async throws(AttachmentError) -> String {
        let response = try await exchange(
            "POST", "/v1/attachments", headers: ["Content-Type": "application/json"],
            body: JSONWriter.encode(["length": .int(Int64(length))]))
        switch response.status {
        case 200:
            guard let id = response.json?["id"]?.stringValue, AttachmentPointer.isServerId(id) else {
                throw AttachmentError(.server, "the server's answer carries no attachment id", status: 200)
            }
            return id
        case 413: throw AttachmentError(.tooLarge, "the server refuses attachments of \(length) bytes", status: 413)
        default: throw Self.unexpected(response)
        }
    }

    /// Sends `blob` from wherever the server stands, resuming after broken connections.
    private func send(
        _ blob: [UInt8], id: String, progress: @Sendable (AttachmentUploadProgress) async -> Void
    ) async throws(AttachmentError) {
        let total = blob.count
        let pieceBytes = max(1, configuration.pieceBytes)
        var offset = 0
        var failures = 0
        var resuming = false
        while true {
            let response: HTTPClientResponse
            do throws(AttachmentError) {
                if offset < total && !resuming {
                    let end = min(offset + pieceBytes, total)
                    response = try await put(
                        id, range: "bytes \(offset)-\(end - 1)/\(total)", body: Array(blob[offset..<end]))
                } else {
                    response = try await put(id, range: "bytes */\(total)", body: nil)
                }
            } catch  where error.code == .transport && failures < configuration.maximumRetries {
                failures += 1
                resuming = true
                try await pause(attempt: failures)
                continue
            }
            switch response.status {
            case 200, 201:
                await progress(AttachmentUploadProgress(id: id, event: .confirmed, confirmed: total, total: total))
                return
            case 308, 409:
                // 409: our offset was wrong (an earlier piece landed after all); take the server's.
                let reported = Self.offset(response)
                if reported <= offset && offset < total && !resuming {
                    failures += 1
                    guard failures <= configuration.maximumRetries else {
                        throw AttachmentError(.server, "the server stopped taking pieces at byte \(offset)")
                    }
                }
                offset = reported
                let event: AttachmentUploadProgress.Event = resuming ? .resumed : .confirmed
                resuming = false
                await progress(AttachmentUploadProgress(id: id, event: event, confirmed: offset, total: total))
            case 404:
                throw AttachmentError(.notFound, "the upload expired on the server; start a new one", status: 404)
            default:
                throw Self.unexpected(response)
            }
        }
    }

    private func put(_ id: String, range: String, body: [UInt8]?) async throws(AttachmentError) -> HTTPClientResponse {
        var headers = ["Content-Range": range]
        if body != nil { headers["Content-Type"] = "application/octet-stream" }
        return try await exchange("PUT", "/v1/attachments/\(id)", headers: headers, body: body)
    }

    private func pause(attempt: Int) async throws(AttachmentError) {
        do {
            try await clock.sleep(for: configuration.backoff.delay(attempt: attempt))
        } catch {
            throw AttachmentError(.cancelled, "the upload was cancelled", underlying: error)
        }
    }

    private func exchange(_ method: String, _ path: String, headers: [String: String], body: [UInt8]?)
        async throws(AttachmentError) -> HTTPClientResponse
    {
        var all = headers
        all["Authorization"] = configuration.authorization
        let response: HTTPClientResponse
        do {
            response = try await client.send(method, configuration.baseURL + path, headers: all, body: body)
        } catch {
            if Task.isCancelled { throw AttachmentError(.cancelled, "the upload was cancelled", underlying: error) }
            throw AttachmentError(.transport, "\(method) \(path) failed: \(error)", underlying: error)
        }
        if response.status == 401 {
            throw AttachmentError(.unauthorized, "the server refused this device's credentials", status: 401)
        }
        return response
    }

    /// `Range: bytes=0-N` → N + 1; no header → 0.
    static func offset(_ response: HTTPClientResponse) -> Int {
        guard let range = response.header("range"), range.hasPrefix("bytes=0-"),
            let last = Int(range.dropFirst("bytes=0-".count)), last >= 0
        else { return 0 }
        return last + 1
    }

    static func unexpected(_ response: HTTPClientResponse) -> AttachmentError {
        let code = response.json?["error"]?["code"]?.stringValue ?? "unknown"
        return AttachmentError(
            .server, "the server answered \(response.status) (\(code))", status: response.status)
    }
}
