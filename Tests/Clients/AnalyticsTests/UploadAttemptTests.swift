import Analytics
import CourierCore
import Testing

/// `FlushResult.lastUpload`: what a tool needs to explain a delivery, read from the last answer.
@Suite(.timeLimit(.minutes(1)))
struct UploadAttemptTests {
    static func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(
        arguments: [
            (TransportResult.failure("connection refused"), nil, "connection refused", nil, false),
            (.response(status: 200, headers: [:], body: body(#"{"success":true}"#)), 200, nil, nil, true),
            (
                .response(
                    status: 403, headers: [:],
                    body: body(#"{"error":{"code":"project_disabled","message":"off"},"code":"project_disabled"}"#)),
                403, nil, "project_disabled", true
            ),
            (.response(status: 404, headers: [:], body: body("<html>not found</html>")), 404, nil, nil, false),
            (.response(status: 200, headers: [:], body: []), 200, nil, nil, false),
        ] as [(TransportResult, Int?, String?, String?, Bool)])
    func anAnswerIsRead(result: TransportResult, status: Int?, failure: String?, code: String?, collector: Bool) {
        let attempt = UploadAttempt(url: "http://h/v1/batch", events: 2, result: result)
        #expect(attempt.status == status)
        #expect(attempt.failure == failure)
        #expect(attempt.errorCode == code)
        #expect(attempt.fromCollector == collector)
        #expect(attempt.events == 2)
    }

    @Test func flushedReportsTheLastUploadsAnswer() async throws {
        let harness = try SDKHarness()
        harness.transport.script([.failure("connection refused")])
        let analytics = harness.make()
        #expect(await analytics.flushed().lastUpload == nil)
        analytics.track("Opened")
        let failed = await analytics.flushed()
        #expect(failed.lastUpload?.failure == "connection refused")
        #expect(failed.lastUpload?.url == "http://collector.invalid/v1/batch")
        #expect(failed.remaining == 1)
    }
}
