import CourierCore
import CourierHTTP
import CourierHTTPClient
import CourierTesting
import Foundation
import Testing

@testable import Messenger

/// The wait a refusing server asks for reaches the client's error in either form RFC 9110 allows.
@Suite(.timeLimit(.minutes(1)))
struct MessengerRetryAfterTests {
    @Test func aRefusalsRetryAfterIsReadAsSecondsOrAsADateOnTheClientsClock() async throws {
        let clock = ManualClock()
        // 2026-12-04 12:00:00 UTC on the client's clock.
        clock.setWallTime(Date(timeIntervalSince1970: 1_796_385_600))
        for (value, expected) in [
            ("90", Duration.seconds(90)), ("Fri, 04 Dec 2026 12:02:00 GMT", .seconds(120)),
            ("Fri, 04 Dec 2026 11:00:00 GMT", .zero), ("later", nil),
        ] {
            var router = Router()
            router.add("POST", "/v1/accounts") { _ in
                .json(
                    ["code": "rate_limited", "message": "slow down"], status: .tooManyRequests,
                    headers: [("Retry-After", value)])
            }
            var configuration = HTTPServerConfiguration()
            configuration.port = 0
            let server = HTTPServer(configuration: configuration, router: router)
            try server.start()
            defer { server.stop() }
            let api = MessengerAPI(baseURL: server.baseURL, client: HTTPClient(timeout: .seconds(30)), clock: clock)
            await #expect {
                _ = try await api.register(password: "secret", registrationId: 1, name: "phone")
            } throws: { error in
                let failure = error as? MessengerClientError
                return failure?.status == 429 && failure?.retryAfter == expected
            }
        }
    }
}
