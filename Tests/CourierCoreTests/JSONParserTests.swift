import CourierCore
import Testing

struct JSONParserTests {
    @Test(arguments: [
        ("{\"a\":1}", JSONValue.object(["a": .int(1)])),
        ("[1,2.5,-3,true,false,null,\"x\"]", .array([.int(1), .double(2.5), .int(-3), .bool(true), .bool(false), .null, .string("x")])),
        ("  \"\\u00e9\\n\\\"\\\\\\/\"  ", .string("é\n\"\\/")),
        ("\"\\ud83d\\ude00\"", .string("😀")),
        ("9223372036854775807", .int(Int64.max)),
        ("-9223372036854775808", .int(Int64.min)),
        ("9223372036854775808", .double(9223372036854775808)),
        ("1e3", .double(1000)),
        ("0", .int(0)),
        ("{\"nested\":{\"list\":[[],{}]}}", .object(["nested": .object(["list": .array([.array([]), .object([:])])])])),
    ])
    func parsesValidDocuments(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":}", "{\"a\" 1}", "01", "1.", "-", "tru", "nul", "\"abc", "\"\\x\"",
        "\"\\ud800\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "1e400", "{\"a\":1}x", "[1 2]", "\"a\u{01}b\"", "{1:2}", "1e", "NaN", "[\"\\u12\"]",
    ])
    func rejectsInvalidDocuments(text: String) {
        #expect(throws: JSONError.self) { try JSONParser.parse(text) }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect((try? JSONParser.parse(ok)) != nil)
    }

    @Test(arguments: ["19.99", "0.1", "1e+21", "-0.5", "123456789.125", "5e-324"])
    func doublesRoundTripInShortestForm(text: String) throws {
        let value = try JSONParser.parse(text)
        let written = JSONWriter.string(value)
        #expect(try JSONParser.parse(written) == value)
        if text == "19.99" { #expect(written == "19.99") }
    }

    @Test func integersStayIntegers() throws {
        #expect(JSONWriter.string(try JSONParser.parse("[42,-7]")) == "[42,-7]")
    }

    @Test func writerEscapesControlCharactersAndQuotes() throws {
        let value = JSONValue.string("a\"b\\c\u{01}\n")
        let text = JSONWriter.string(value)
        #expect(text == "\"a\\\"b\\\\c\\u0001\\n\"")
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func recordsElementSizesOfTheNamedMember() throws {
        let text = "{\"other\":[1,2,3],\"batch\":[{\"a\":1},  \"xyz\",[1, 2]]}"
        var sizes: [Int] = []
        _ = try JSONParser.parse(Array(text.utf8), elementSizesOf: "batch", into: &sizes)
        #expect(sizes == [7, 5, 6])
    }

    @Test func recordsMemberSpansOfTheNamedArraysObjectsOnly() throws {
        let text = #"{"batch":[{"a": 1 ,"n":{"x":2}}, 5, [{"no":1}], {}],"other":[{"z":1}]}"#
        let bytes = Array(text.utf8)
        var sizes: [Int] = []
        var members: [[JSONMemberSpan]] = []
        _ = try JSONParser.parse(bytes, elementSizesOf: "batch", into: &sizes, members: &members)
        #expect(members.count == 4)
        #expect(members[0].map(\.key) == ["a", "n"])
        #expect(members[0].map { String(decoding: bytes[$0.range], as: UTF8.self) } == [#""a": 1"#, #""n":{"x":2}"#])
        #expect(members[1].isEmpty && members[2].isEmpty && members[3].isEmpty)
    }

    @Test func errorsCarryTheOffset() {
        do {
            _ = try JSONParser.parse("[1, x]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 4)
        }
    }
}
