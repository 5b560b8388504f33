import CourierCore
import CourierHTTP

extension MessengerServer {
    /// Attachments are ciphertext the server cannot read (the key travels inside the message).
    /// Ids are 32 random bytes: downloads need no credentials, as from Signal's CDN.
    func mountAttachments(on router: inout Router) {
        router.add("POST", "/v1/attachments") { [self] request, _ in try createAttachment(request) }
        router.add("PUT", "/v1/attachments/{id}") { [self] request, _ in try uploadAttachment(request) }
        router.add("GET", "/v1/attachments/{id}") { [self] request, _ in try downloadAttachment(request) }
    }

    private func attachmentFiles() throws(HTTPError) -> any AttachmentStore {
        guard let attachments else { throw HTTPError(.unavailable, "this server keeps no attachments") }
        return attachments
    }

    /// `POST /v1/attachments {"length": N}` → an id to upload to.
    func createAttachment(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let device = try device(request)
        _ = try attachmentFiles()
        let body = try RequestJSON(request)
        guard let length = body.value["length"]?.intValue, length > 0 else {
            throw HTTPError.badRequest("length must be a positive integer")
        }
        guard length <= configuration.maximumAttachmentBytes else {
            throw HTTPError(.payloadTooLarge, "an attachment is at most \(configuration.maximumAttachmentBytes) bytes")
        }
        let id = SodiumRandom.token()
        let expiresAt = clock.nowMilliseconds + configuration.attachmentLifetimeMilliseconds
        try stored { () throws(MessengerStoreError) in
            try store.createAttachment(id: id, accountId: device.accountId, length: length, expiresAt: expiresAt)
        }
        return .json(["id": .string(id), "location": .string("/v1/attachments/\(id)"), "expiresAt": .int(expiresAt)])
    }

    /// `PUT /v1/attachments/{id}` with `Content-Range: bytes S-E/T`: the next piece, which must
    /// start where the last ended. `bytes */T` with no body asks how much has arrived. An
    /// incomplete upload answers 308 with `Range: bytes=0-N` (Google's resumable uploads).
    /// Only the account that created the upload may write or ask: any other gets the 404 of an
    /// unknown id, before a byte is written.
    func uploadAttachment(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let caller = try device(request)
        let files = try attachmentFiles()
        guard let id = request.pathParameters["id"], Self.isAttachmentId(id),
            let state = try stored({ () throws(MessengerStoreError) in try store.attachment(id: id) }),
            state.accountId == caller.accountId
        else { throw HTTPError(.notFound, "no such attachment upload") }
        guard let range = ContentRange(request.header("content-range") ?? ""), range.total == state.length else {
            throw HTTPError.badRequest("send Content-Range: bytes start-end/\(state.length)")
        }
        var received = state.received
        if let start = range.start {
            guard start == received else {
                var error = HTTPError(.wrongOffset, "the next piece starts at byte \(received)")
                error.headers = Self.rangeHeader(received)
                throw error
            }
            guard Int64(request.body.count) == range.length, start + range.length <= state.length else {
                throw HTTPError.badRequest("the body's size does not match Content-Range")
            }
            do {
                try files.write(request.body, at: start, to: id)
            } catch let failure where failure.kind == .diskFull {
                throw HTTPError(.insufficientStorage, "the server's disk is full")
            } catch {
                throw HTTPError(.storageError, "cannot write the attachment")
            }
            received = start + range.length
            try stored { () throws(MessengerStoreError) in try store.setAttachmentReceived(id: id, received: received) }
        }
        if received == state.length { return .json(["id": .string(id), "length": .int(received)]) }
        return HTTPResponse(status: 308, headers: Self.rangeHeader(received))
    }

    /// `GET /v1/attachments/{id}`: the whole ciphertext, once every byte has arrived.
    func downloadAttachment(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let files = try attachmentFiles()
        guard let id = request.pathParameters["id"], Self.isAttachmentId(id),
            let state = try stored({ () throws(MessengerStoreError) in try store.attachment(id: id) }),
            state.received == state.length, let bytes = try? files.read(id)
        else { throw HTTPError(.notFound, "no such attachment") }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: bytes)
    }

    private static func rangeHeader(_ received: Int64) -> [(String, String)] {
        received > 0 ? [("Range", "bytes=0-\(received - 1)")] : []
    }

    static func isAttachmentId(_ id: String) -> Bool {
        id.utf8.count == 64 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}

/// `Content-Range: bytes S-E/T` or `bytes */T`.
struct ContentRange {
    let start: Int64?
    let length: Int64
    let total: Int64

    init?(_ header: String) {
        guard header.hasPrefix("bytes "), let slash = header.lastIndex(of: "/"),
            let total = Int64(header[header.index(after: slash)...]), total > 0
        else { return nil }
        let span = header[header.index(header.startIndex, offsetBy: 6)..<slash]
        self.total = total
        if span == "*" {
            start = nil
            length = 0
            return
        }
        let parts = span.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int64(parts[0]), let last = Int64(parts[1]), first >= 0, last >= first,
            last < total
        else { return nil }
        start = first
        length = last - first + 1
    }
}
