import CourierCore
import Testing

@testable import Messenger

struct ContentFormatTests {
    @Test(arguments: [
        MessageContent.text(body: "hé 👋", attachment: [1, 2, 3], sentAt: 42, group: nil),
        .text(body: "", attachment: nil, sentAt: 0, group: "g"),
        .receipt(.read, conversation: "dm:a:b", upToSeq: 7),
        .typing(started: false, conversation: "dm:a:b"),
        .groupUpdate(group: "g", mode: .senderKeys, members: ["a", "b"]),
        .senderKey(group: "g", distribution: [9, 9]),
        .unknown(kind: "poll"),
    ])
    func roundTrips(_ content: MessageContent) throws {
        #expect(try MessageContent(decoding: content.encoded) == content)
    }

    @Test(arguments: [
        "", "not json", #"{"kind":"text","body":"x"}"#, #"{"v":2,"kind":"text","body":"x"}"#,
        #"{"v":1,"kind":"text"}"#, #"{"v":1,"kind":"receipt","receipt":"seen","conversation":"c","upToSeq":1}"#,
        #"{"v":1,"kind":"text","body":"x","attachment":"%%"}"#,
        #"{"v":1,"kind":"group","group":"g","mode":"x","members":[]}"#,
    ])
    func malformedContentIsRefused(_ text: String) {
        #expect(throws: MessengerClientError.self) { try MessageContent(decoding: Array(text.utf8)) }
    }

    @Test func theVersionIsWritten() throws {
        let json = try JSONParser.parse(MessageContent.typing(started: true, conversation: "c").encoded)
        #expect(json["v"]?.intValue == 1)
        #expect(json["kind"]?.stringValue == "typing")
    }
}
