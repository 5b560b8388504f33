import CourierCore
import CourierHTTP
import Testing

@testable import MessengerServer

/// The response frame of a socket request: the route's JSON body goes in as its bytes.
struct SocketResponseFrameTests {
    @Test func aJSONBodyIsSplicedInAndTheFrameParsesToTheSameValue() throws {
        let body: JSONValue = ["serverSeq": 42, "duplicate": false, "note": "é \"quoted\""]
        let frame = MessengerServer.responseFrame(7, .json(body, status: 200))
        let parsed = try JSONParser.parse(frame)
        #expect(parsed == ["type": "response", "id": 7, "status": 200, "body": body])
    }

    @Test func anEmptyOrNonJSONBodyIsLeftOut() throws {
        let empty = try JSONParser.parse(MessengerServer.responseFrame(3, HTTPResponse(status: 200)))
        #expect(empty == ["type": "response", "id": 3, "status": 200])
        let text = try JSONParser.parse(MessengerServer.responseFrame(4, .text("not json {", status: 500)))
        #expect(text == ["type": "response", "id": 4, "status": 500])
    }

    @Test func anErrorKeepsItsStatusAndBody() throws {
        let error = HTTPResponse.error(status: 413, code: "payload_too_large", message: "too big")
        let parsed = try JSONParser.parse(MessengerServer.responseFrame(9, error))
        #expect(parsed["status"] == 413)
        #expect(parsed["body"]?["error"]?["code"] == "payload_too_large")
    }
}
