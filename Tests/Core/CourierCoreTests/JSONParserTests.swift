import CourierCore
import Testing

struct JSONParserTests {
    @Test(arguments: [
        ("{\"a\":1}", JSONValue.object(["a": .int(1)])),
        (
            "[1,2.5,-3,true,false,null,\"x\"]",
            .array([.int(1), .double(2.5), .int(-3), .bool(true), .bool(false), .null, .string("x")])
        ),
        ("  \"\\u00e9\\n\\\"\\\\\\/\"  ", .string("é\n\"\\/")),
        ("\"\\ud83d\\ude00\"", .string("😀")),
        ("9223372036854775807", .int(Int64.max)),
        ("-9223372036854775808", .int(Int64.min)),
        ("9223372036854775808", .bigInteger("9223372036854775808")),
        ("-18446744073709551616", .bigInteger("-18446744073709551616")),
        ("1e3", .double(1000)),
        ("0", .int(0)),
        (
            "{\"nested\":{\"list\":[[],{}]}}",
            .object(["nested": .object(["list": .array([.array([]), .object([:])])])])
        ),
    ])
    func parsesValidDocuments(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":}", "{\"a\" 1}", "01", "1.", "-", "tru", "nul", "\"abc", "\"\\x\"",
        "\"\\ud800\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "1e400", "{\"a\":1}x", "[1 2]", "\"a\u{01}b\"", "{1:2}",
        "1e", "NaN", "[\"\\u12\"]",
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

    @Test func recordsMembersOfTheNamedArraysObjectsOnly() throws {
        let text = #"{"batch":[{"a": 1 ,"n":{"x":2}}, 5, [{"no":1}], {}],"other":[{"z":1}]}"#
        let bytes = Array(text.utf8)
        var sizes: [Int] = []
        var members = JSONElementMembers()
        _ = try JSONParser.parse(bytes, elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        #expect(members.count == 4)
        #expect(members[0].map { String(decoding: bytes[$0.key], as: UTF8.self) } == ["a", "n"])
        #expect(members[0].map { String(decoding: bytes[$0.range], as: UTF8.self) } == [#""a": 1"#, #""n":{"x":2}"#])
        #expect(members[1].isEmpty && members[2].isEmpty && members[3].isEmpty)
    }

    /// Strings are scanned 8 bytes at a time: whatever the byte that stops the scan (an escape,
    /// the closing quote, a control character, bad UTF-8) and wherever it falls in a word, the
    /// result is the one a byte-by-byte reading gives.
    @Test func stringsScannedAWordAtATimeReadAsByteByByte() throws {
        let inserts: [(raw: [UInt8], decoded: String?)] = [
            (Array(#"\""#.utf8), "\""), (Array(#"\\"#.utf8), "\\"), (Array(#"\u00e9"#.utf8), "é"),
            (Array("é".utf8), "é"), (Array("😀".utf8), "😀"), ([0x7F], "\u{7F}"),
            ([0x1F], nil), ([0x0A], nil), ([0xFF], nil), ([0xC3], nil),
        ]
        for length in 0..<34 {
            for position in 0...length {
                for insert in inserts {
                    let before = String(repeating: "a", count: position)
                    let after = String(repeating: "b", count: length - position)
                    let bytes = [0x22] + Array(before.utf8) + insert.raw + Array(after.utf8) + [0x22]
                    if let decoded = insert.decoded {
                        #expect(try JSONParser.parse(bytes) == .string(before + decoded + after))
                    } else {
                        #expect(throws: JSONError.self) { try JSONParser.parse(bytes) }
                    }
                }
            }
        }
    }

    @Test func elementsNotBuiltComeAsMembersWithTheirKinds() throws {
        let text =
            #"{"batch":[{"type":"track","n":2,"p":{"x":[1]},"e\u0078":"a\"b","b":true,"z":null},7,{}],"sentAt":"s"}"#
        let bytes = Array(text.utf8)
        var sizes: [Int] = []
        var members = JSONElementMembers()
        let value = try JSONParser.parse(bytes, elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        #expect(value == ["batch": [.object([:]), 7, .object([:])], "sentAt": "s"])
        #expect(members.count == 3)
        let first = Array(members[0])
        func slice(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        #expect(first.map { slice($0.key) } == ["type", "n", "p", #"e\u0078"#, "b", "z"])
        #expect(first.map(\.kind) == [.string, .number, .object, .string, .bool, .null])
        #expect(first.map { slice($0.value) } == [#""track""#, "2", #"{"x":[1]}"#, #""a\"b""#, "true", "null"])
        #expect(first.map { slice($0.range) }.first == #""type":"track""#)
        #expect(first.map(\.keyHasEscapes) == [false, false, false, true, false, false])
        #expect(first.map(\.valueHasEscapes) == [false, false, false, true, false, false])
        #expect(JSONParser.string(in: bytes, quoted: first[3].value) == "a\"b")
        #expect(first[0].stringContent.map(slice) == "track")
        #expect(members[1].isEmpty && members[2].isEmpty)
        #expect(sizes.count == 3)
    }

    @Test(arguments: [
        #"{"batch":[{"type":"track","type":"identify"}]}"#,
        #"{"batch":[{"type":"track","\u0074ype":"identify"}]}"#,
        "{\"batch\":[{" + (0..<40).map { "\"k\($0)\":0" }.joined(separator: ",") + ",\"k39\":1}]}",
        // …and what lies inside them is checked as when built.
        #"{"batch":[{"p":{"x":1,"x":2}}]}"#,
        #"{"batch":[{"p":[1,2,]}]}"#,
        #"{"batch":[{"p":1e999}]}"#,
        #"{"batch":[{"p":"\u00zz"}]}"#,
        #"{"batch":[{"p":tru}]}"#,
        #"{"batch":[{"p":01}]}"#,
        // Two spellings of one key are one key to a built object's dictionary, so to both paths.
        #"{"batch":[{"p":{"caf\u00e9":1,"cafe\u0301":2}}]}"#,
        "{\"batch\":[{\"p\":{\"caf\u{E9}\":1,\"cafe\u{301}\":2}}]}",
        "{\"batch\":[{\"p\":{\"K\":1,\"\u{212A}\":2}}]}",
        "{\"batch\":[{\"p\":{\"\u{212A}\":1,\"K\":2}}]}",
        "{\"batch\":[{\"p\":{" + (0..<40).map { "\"K\($0)\":0" }.joined(separator: ",") + ",\"\u{212A}39\":1}}]}",
        "{\"batch\":[{\"p\":{" + (0..<40).map { "\"\u{E9}\($0)\":0" }.joined(separator: ",")
            + ",\"e\u{301}39\":1}}]}",
    ])
    func elementsNotBuiltAreCheckedAsStrictly(text: String) {
        var sizes: [Int] = []
        var members = JSONElementMembers()
        #expect(throws: JSONError.self) {
            try JSONParser.parse(Array(text.utf8), elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        }
        #expect(throws: JSONError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func errorsCarryTheOffset() {
        do {
            _ = try JSONParser.parse("[1, x]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 4)
        }
    }

    /// Bytes that are not UTF-8 would be read as U+FFFD but stored raw, so two ids that differ
    /// only there would collapse into one.
    @Test(
        arguments: [
            [0x22, 0xFF, 0x22],  // a byte that never starts a sequence
            [0x22, 0xC0, 0xAF, 0x22],  // an overlong "/"
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0xE2, 0x82, 0x22],  // a truncated sequence
            [0x22, 0x5C, 0x6E, 0xC3, 0x22],  // after an escape
        ] as [[UInt8]])
    func refusesInvalidUTF8InStrings(string: [UInt8]) {
        #expect(throws: JSONError.self) { try JSONParser.parse(string) }
        // …also where the parser only checks a value without building it.
        let batch = Array(#"{"batch":[{"properties":{"a":"#.utf8) + string + Array("}}]}".utf8)
        var sizes: [Int] = []
        var members = JSONElementMembers()
        #expect(throws: JSONError.self) {
            try JSONParser.parse(batch, elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        }
    }

    @Test func acceptsValidMultibyteText() throws {
        #expect(try JSONParser.parse("\"é😀\\n漢\"") == .string("é😀\n漢"))
    }

    @Test(arguments: [
        #"{"type":"track","type":"identify"}"#,
        #"{"a":1,"b":2,"a":3}"#,
        #"{"a":1,"\u0061":2}"#,
    ])
    func refusesDuplicateKeys(text: String) {
        #expect(throws: JSONError.self) { try JSONParser.parse(text) }
    }

    @Test(arguments: [
        #"{"batch":[{"properties":{"x":1,"x":2}}]}"#,
        #"{"batch":[{"context":{"a":{"k":1,"\u006b":2}}}]}"#,
        "{\"batch\":[{\"p\":{" + (0..<40).map { "\"k\($0)\":0" }.joined(separator: ",") + ",\"k7\":1}}]}",
    ])
    func refusesDuplicateKeysInSkippedObjects(text: String) {
        var sizes: [Int] = []
        var members = JSONElementMembers()
        #expect(throws: JSONError.self) {
            try JSONParser.parse(Array(text.utf8), elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        }
    }

    /// Keys with escapes are kept in a set past a few, like plain ones: a list of them was scanned
    /// once per key (an object of tens of thousands cost billions of comparisons: 20,000 took 36 s
    /// in a debug build, so 40,000 would pass the time limit by far).
    @Test(.timeLimit(.minutes(1)))
    func manyEscapedKeysInSkippedObjectsAreFineAndARepeatIsFound() throws {
        let keys = (0..<40_000).map { "\"\\u0061\($0)\":0" }.joined(separator: ",")
        let fine = "{\"batch\":[{\"p\":{" + keys + ",\"k\":1,\"\u{E9}\":2}}]}"
        var sizes: [Int] = []
        var members = JSONElementMembers()
        _ = try JSONParser.parse(Array(fine.utf8), elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        #expect(sizes.count == 1)
        for repeated in [",\"a39999\":1", ",\"\\u0061\\u0031\":1"] {
            let text = "{\"batch\":[{\"p\":{" + keys + repeated + "}}]}"
            #expect(throws: JSONError.self) {
                try JSONParser.parse(Array(text.utf8), elementSizesOf: "batch", into: &sizes, rawMembers: &members)
            }
        }
    }

    @Test func manyDistinctKeysInSkippedObjectsAreFine() throws {
        let text = "{\"batch\":[{\"p\":{" + (0..<200).map { "\"k\($0)\":0" }.joined(separator: ",") + "}}]}"
        var sizes: [Int] = []
        var members = JSONElementMembers()
        _ = try JSONParser.parse(Array(text.utf8), elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        #expect(sizes.count == 1)
    }

    /// Only the sized array is read shallowly: the batch's own `context` beside it is built
    /// whole, however deep (the collector copies it into every message).
    @Test func valuesOutsideTheSizedArrayAreBuiltWhole() throws {
        let text = #"{"context":{"a":{"b":{"c":{"d":[1,{"e":2}]}}}},"batch":[{"p":{"q":{"r":1}}}]}"#
        var sizes: [Int] = []
        var members = JSONElementMembers()
        let value = try JSONParser.parse(Array(text.utf8), elementSizesOf: "batch", into: &sizes, rawMembers: &members)
        #expect(value["context"] == ["a": ["b": ["c": ["d": [1, ["e": 2]]]]]])
        #expect(value["batch"] == [.object([:])])
        #expect(members.count == 1 && members[0].first?.kind == .object)
    }

    @Test func bigIntegersKeepEveryDigit() throws {
        let value = try JSONParser.parse("[18446744073709551616,-99999999999999999999999]")
        #expect(JSONWriter.string(value) == "[18446744073709551616,-99999999999999999999999]")
    }

    @Test func objectsAreWrittenWithKeysInAFixedOrder() {
        var object: [String: JSONValue] = [:]
        for i in (0..<50).reversed() { object["k\(i)"] = .int(Int64(i)) }
        let text = JSONWriter.string(.object(object))
        let keys = (0..<50).map { "k\($0)" }.sorted()
        #expect(text == "{" + keys.map { "\"\($0)\":\($0.dropFirst())" }.joined(separator: ",") + "}")
    }

    @Test func unsortedWritingStillRoundTrips() throws {
        let value: JSONValue = ["b": [1, 2], "a": ["z": nil, "y": "é"], "c": 1.5]
        var writer = JSONWriter()
        writer.sortsKeys = false
        writer.write(value)
        #expect(try JSONParser.parse(writer.bytes) == value)
    }
}
