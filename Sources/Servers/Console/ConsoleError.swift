import CourierHTTP

/// The console's refusals, in Courier's error shape. None of them carries `WWW-Authenticate`:
/// the console signs in with a form, not with HTTP authentication.
extension HTTPError.Code {
    /// 401: no live session (never signed in, signed out, or expired).
    static let signedOut = HTTPError.Code("signed_out", status: 401)
    /// 401: the token given at sign-in is not the admin token.
    static let invalidToken = HTTPError.Code("invalid_token", status: 401)
    /// 403: a state-changing request without the session's CSRF token.
    static let csrfRefused = HTTPError.Code("csrf_refused", status: 403)
    /// 403: the console is disabled because the server has no admin token.
    static let consoleDisabled = HTTPError.Code("console_disabled", status: 403)
    /// 415: sign-in must be JSON (which a cross-site form cannot send).
    static let jsonRequired = HTTPError.Code("json_required", status: 415)
}
