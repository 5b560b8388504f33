import CourierHTTP
import Testing

struct HTTPTypesTests {
    @Test(arguments: [("get", HTTPMethod.get), ("Post", .post), ("DELETE", .delete), ("options", .options)])
    func methodsAreUpperCased(text: String, method: HTTPMethod) {
        #expect(HTTPMethod(rawValue: text) == method)
        #expect(HTTPMethod(rawValue: text).description == text.uppercased())
    }

    @Test(arguments: [
        (200, "200 OK", true, false), (404, "404 Not Found", false, true),
        (507, "507 Insufficient Storage", false, false),
        (499, "499 Status", false, true), (42, "100 Continue", false, false), (5_000, "999 Status", false, false),
    ])
    func statusesKeepAValidCodeAndAReasonPhrase(code: Int, text: String, success: Bool, clientError: Bool) {
        let status = HTTPStatus(code: code)
        #expect(status.description == text)
        #expect(status.isSuccess == success)
        #expect(status.isClientError == clientError)
    }

    @Test func errorsOwnTheirStatus() {
        #expect(HTTPError(.rateLimited, "slow down").status == .tooManyRequests)
        #expect(HTTPError(.notFound, "none").response().status == 404)
        #expect(HTTPError(HTTPError.Code("teapot", status: 418), "short").status.code == 418)
    }
}
