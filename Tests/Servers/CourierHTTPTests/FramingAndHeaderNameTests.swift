import Testing

@testable import CourierHTTP

/// The checks every request and answer goes through: ambiguous framing, and header names found
/// without regard to case (and only to the case of letters).
struct FramingAndHeaderNameTests {
    @Test func framingIsAmbiguousOnlyWithTwoLengthsOrALengthBesideChunked() {
        #expect(Responder.framingProblem(contentLength: nil, transferEncoding: nil) == nil)
        #expect(Responder.framingProblem(contentLength: nil, transferEncoding: "chunked") == nil)
        #expect(Responder.framingProblem(contentLength: "10", transferEncoding: nil) == nil)
        #expect(
            Responder.framingProblem(contentLength: "10, 10", transferEncoding: nil) == nil, "the same length twice")
        #expect(
            Responder.framingProblem(contentLength: "10, 11", transferEncoding: nil)
                == "conflicting Content-Length headers")
        #expect(
            Responder.framingProblem(contentLength: "10", transferEncoding: "chunked")
                == "Content-Length and Transfer-Encoding together")
    }

    @Test func theGuardTakesTheEnginesFramingCheckAndChecksARequestMadeInProcess() throws {
        let guardMiddleware = ServerGuardMiddleware(lifecycle: ServerLifecycle())
        let context = RequestContext(requestID: "r", match: .notFound, startedAt: 0, bodyTooLarge: false)
        func status(_ request: HTTPRequest) -> Int {
            do {
                return try guardMiddleware.handle(request, context: context) { _, _ in HTTPResponse(status: 200) }
                    .status.code
            } catch {
                return (error as? HTTPError)?.status.code ?? 0
            }
        }
        let twoLengths = HTTPRequest(method: .post, path: "/", headers: ["content-length": "10, 11"])
        #expect(status(twoLengths) == 400, "in process: the headers are read")
        var checkedFine = twoLengths
        checkedFine.checkedFraming = HTTPRequest.FramingCheck(problem: nil)
        #expect(status(checkedFine) == 200, "the engine's check stands: the headers are not read again")
        var checkedBad = HTTPRequest(method: .post, path: "/")
        checkedBad.checkedFraming = HTTPRequest.FramingCheck(problem: "conflicting Content-Length headers")
        #expect(status(checkedBad) == 400)
    }

    @Test func answerHeadersAreFoundWhateverTheCaseOfTheirLetters() {
        let response = HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain"), ("X-Trace-[1]", "a"), ("X-Options", "b")])
        #expect(response.header("content-type") == "text/plain")
        #expect(response.header("CONTENT-TYPE") == "text/plain")
        #expect(response.header("x-trace-[1]") == "a")
        #expect(response.header("x-trace-{1}") == nil, "{ and [ differ by the case bit but are not letters")
        #expect(response.header("x-options") == "b")
        #expect(response.header("x-option") == nil)
        #expect(response.header("x-optionz") == nil)
    }

    @Test(arguments: [
        ("X-Name", "plain", true), ("X-Name", "caf\u{e9} \t tab", true), ("X-Name", "", true),
        ("X-Name", "a\r\nSet-Cookie: x=1", false), ("X-Name", "a\nb", false), ("X-Name", "a\u{0}b", false),
        ("", "v", false), ("X Name", "v", false), ("X-Name:", "v", false), ("X-N\u{e9}", "v", false),
        ("X-\u{7F}", "v", false),
    ])
    func answerHeadersWithControlBytesOrBadNamesAreRefused(name: String, value: String, safe: Bool) {
        #expect(Responder.headersAreSafe([("Content-Type", "text/plain"), (name, value)]) == safe)
    }
}
