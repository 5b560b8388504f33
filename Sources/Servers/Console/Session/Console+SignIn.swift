import CourierCore
import CourierHTTP

extension Console {
    /// `GET /console/api/session`: the session's CSRF token and expiry, or 401 `signed_out`.
    func currentSession(_ request: HTTPRequest) async throws -> HTTPResponse {
        _ = try requireAdminToken()
        return Self.answer(try await requireSession(request))
    }

    /// `POST /console/api/session` with `{"token": "…"}`: signs in with the admin token and sets
    /// the session cookie. Every attempt spends from the client's sign-in limit.
    func signIn(_ request: HTTPRequest) async throws -> HTTPResponse {
        let expected = try requireAdminToken()
        guard request.header("content-type")?.lowercased().hasPrefix("application/json") == true else {
            throw HTTPError(.jsonRequired, "sign in with a JSON body {\"token\": …}")
        }
        if case .limited(let seconds) = await takeSignInAttempt(client: request.clientNetwork) {
            throw HTTPError(
                .rateLimited, "too many sign-in attempts; retry in \(seconds) s",
                headers: [("Retry-After", String(seconds))])
        }
        guard let body = try? JSONParser.parse(request.body), let token = body["token"]?.stringValue else {
            throw HTTPError(.badRequest, "sign in with a JSON body {\"token\": …}")
        }
        guard ConstantTime.equals(token, expected) else {
            throw HTTPError(.invalidToken, "that is not the admin token")
        }
        let session = try await createSession()
        var response = Self.answer(session)
        // Behind a proxy that ends TLS, the proxy's word is enough to add `Secure` (it only restricts).
        let secure = configuration.secureCookies || request.header("x-forwarded-proto")?.lowercased() == "https"
        response.headers.append(
            ("Set-Cookie", cookie(value: session.id, maxAge: configuration.sessionLifetime, secure: secure)))
        return response
    }

    /// Spends one of the client's sign-in attempts: from the bucket the instances share in the
    /// session store when it keeps one, else (or when the store fails) from this instance's.
    private func takeSignInAttempt(client: String) async -> RateLimiter.Decision {
        if let shared = try? await sessions.takeSignInAttempt(
            keyDigest: Self.digest(client), limit: configuration.signInLimit, now: clock.nowMilliseconds)
        {
            return shared
        }
        return signInLimiter.take(client)
    }

    /// `DELETE /console/api/session` (with the CSRF token): signs out and clears the cookie.
    func signOut(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await requireSession(request)
        try requireCSRFToken(request, session: session)
        try await endSession(session)
        var response = HTTPResponse.json(["signedOut": true])
        response.headers.append(("Set-Cookie", cookie(value: "", maxAge: .zero, secure: configuration.secureCookies)))
        return response
    }

    private func cookie(value: String, maxAge: Duration, secure: Bool) -> String {
        var text =
            "\(Self.cookieName)=\(value); Path=/; Max-Age=\(maxAge.wholeMilliseconds / 1000); HttpOnly; SameSite=Strict"
        if secure { text += "; Secure" }
        return text
    }

    private static func answer(_ session: ConsoleSession) -> HTTPResponse {
        var response = HTTPResponse.json([
            "csrfToken": .string(session.csrfToken),
            "expiresAt": .string(Timestamp.format(milliseconds: session.expiresAtMilliseconds)),
        ])
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }
}
