import CourierCore
import CourierHTTP

/// The messenger's error codes. On the messenger's routes an error body also carries `code` and
/// `message` at the top level, where its first clients read them (`TopLevelErrorFieldsMiddleware`),
/// and the fields a client acts on (409's `missingDevices`, …) as `details`.
extension HTTPError.Code {
    /// 403: the linking token is unknown, used or expired.
    public static let invalidLinkingToken = HTTPError.Code("invalid_linking_token", status: 403)
    /// 400: a device password that is not a random secret of the right size.
    public static let weakSecret = HTTPError.Code("weak_secret", status: 400)
    /// 404: the key directory knows no account by that id.
    public static let unknownAccount = HTTPError.Code("unknown_account", status: 404)
    /// 404: the account exists, but none of the devices asked for has uploaded keys yet.
    public static let noKeys = HTTPError.Code("no_keys", status: 404)
    /// 409: the request conflicts with what is stored.
    public static let conflict = HTTPError.Code("conflict", status: 409)
    /// 409: the envelopes do not match the account's devices (`missingDevices`, `extraDevices`).
    public static let mismatchedDevices = HTTPError.Code("mismatched_devices", status: 409)
    /// 409: an upload's range does not start where the stored part ends.
    public static let wrongOffset = HTTPError.Code("wrong_offset", status: 409)
    /// 410: some devices have a new registration id (`staleDevices`).
    public static let staleDevices = HTTPError.Code("stale_devices", status: 410)
    /// 411: the account has as many devices as it may.
    public static let deviceLimit = HTTPError.Code("device_limit", status: 411)
    /// 413: more one-time prekeys in one upload than the server takes.
    public static let tooManyPrekeys = HTTPError.Code("too_many_prekeys", status: 413)
    /// 422: a key that is not a valid public key.
    public static let invalidKey = HTTPError.Code("invalid_key", status: 422)
    /// 422: a signed prekey whose signature does not verify with the identity key.
    public static let invalidSignature = HTTPError.Code("invalid_signature", status: 422)
    /// 500: the server could not store the request.
    public static let storageError = HTTPError.Code("storage_error", status: 500)
    /// 503: the server is too busy to check credentials now; retry shortly.
    public static let busy = HTTPError.Code("busy", status: 503)
    /// 507: the server's disk is full; nothing was stored.
    public static let insufficientStorage = HTTPError.Code("insufficient_storage", status: 507)
}

extension HTTPError {
    static func badRequest(_ message: String) -> HTTPError { HTTPError(.badRequest, message) }

    static func rateLimited(retryAfter seconds: Int) -> HTTPError {
        HTTPError(.rateLimited, "too many requests; retry after \(seconds) s", retryAfterSeconds: seconds)
    }

    /// The answer for a failed store operation: its kind, never its text.
    static func store(_ error: MessengerStoreError) -> HTTPError {
        switch error.kind {
        case .notFound: HTTPError(.notFound, error.message)
        case .conflict: HTTPError(.conflict, error.message)
        case .limitReached: HTTPError(.deviceLimit, error.message)
        case .diskFull: HTTPError(.insufficientStorage, "the server's disk is full; nothing was stored")
        case .storage: HTTPError(.storageError, "the server could not store this")
        }
    }
}
