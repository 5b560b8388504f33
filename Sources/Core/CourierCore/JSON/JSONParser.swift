/// A strict JSON reader (RFC 8259) over UTF-8 bytes.
///
/// It works on the raw buffer with no intermediate tokens, bounds nesting depth so hostile input
/// cannot exhaust the stack, and can report the byte size of each element of one array member of
/// the top-level object (the collector's per-event size limit needs the size of each event as it
/// was sent).
public struct JSONParser {
    /// Nesting deeper than this is refused.
    public static let defaultMaximumDepth = 64

    /// Parses one JSON document.
    /// - Throws: `JSONError` on any syntax error, trailing data or excessive depth.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(JSONError) -> JSONValue {
        var sizes: [Int] = []
        return try parse(bytes, maximumDepth: maximumDepth, elementSizesOf: "", into: &sizes)
    }

    /// Parses one JSON document from a string.
    /// - Throws: `JSONError`.
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses one document and appends to `sizes` the byte length of every element of the array
    /// that is the top-level object's member `member`.
    /// - Throws: `JSONError`.
    package static func parse(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth, elementSizesOf member: String,
        into sizes: inout [Int]
    ) throws(JSONError) -> JSONValue {
        let (value, read) = try read(bytes, maximumDepth: maximumDepth, sizedMember: member) { _ in
        } collect: {
            $0.elementSizes
        }
        sizes.append(contentsOf: read)
        return value
    }

    /// Like `parse(_:maximumDepth:elementSizesOf:into:)`, without building the sized array's
    /// objects: they come back as empty `.object` placeholders, and where each of their members
    /// lies, with its value's kind, goes into `members` (`JSONRawMember`; plain data, no string or
    /// tree per member). They are checked as strictly as when built: every string, number and
    /// nested value, and a repeated key is refused. Elements that are not objects are checked and
    /// come back as empty placeholders of their kind (or as read, for a scalar), with no members.
    /// What lies outside the sized array is built whole.
    /// - Throws: `JSONError`.
    package static func parse(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth, elementSizesOf member: String,
        into sizes: inout [Int], rawMembers members: inout JSONElementMembers
    ) throws(JSONError) -> JSONValue {
        let (value, read) = try read(bytes, maximumDepth: maximumDepth, sizedMember: member) {
            $0.shallowFromDepth = 3
            $0.recordsRaw = true
            // About one member per 24 bytes of a typical batch: the list rarely grows.
            $0.rawMembers.reserve(elements: 0, members: bytes.count / 24)
        } collect: {
            ($0.elementSizes, $0.rawMembers)
        }
        sizes.append(contentsOf: read.0)
        members = read.1
        return value
    }

    /// The text of the JSON string whose quoted bytes are `quoted` in `bytes` (escapes decoded),
    /// or `nil` when they are not a valid string.
    package static func string(in bytes: [UInt8], quoted: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(
                bytes: UnsafeBufferPointer(rebasing: buffer[..<quoted.upperBound]), maximumDepth: 1, sizedMember: "")
            reader.index = quoted.lowerBound
            guard let text = try? reader.string(), reader.index == quoted.upperBound else { return nil }
            return text
        }
    }

    /// Parses one document with a reader that `setUp` configures, and returns the document and
    /// what `collect` takes from the reader after it.
    private static func read<T>(
        _ bytes: [UInt8], maximumDepth: Int, sizedMember: String, setUp: (inout Reader) -> Void,
        collect: (inout Reader) -> T
    ) throws(JSONError) -> (JSONValue, T) {
        let result: Result<(JSONValue, T), JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, maximumDepth: maximumDepth, sizedMember: sizedMember)
            setUp(&reader)
            do throws(JSONError) {
                reader.skipWhitespace()
                let value = try reader.value(depth: 0)
                reader.skipWhitespace()
                if reader.index != buffer.count { throw reader.error("unexpected data after the document") }
                return .success((value, collect(&reader)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let maximumDepth: Int
        let sizedMember: String
        var index = 0
        var elementSizes: [Int] = []
        /// Set by the sized array just before an element, so that object (and only it, not the
        /// objects nested in it) records where its members lie.
        var recordMembersOfNextObject = false
        /// Objects and arrays nested this deep inside the sized array are checked, not built.
        var shallowFromDepth = Int.max
        /// Whether the reader is inside the sized array, the only place `shallowFromDepth` applies.
        var insideSizedArray = false
        /// Whether the sized array's objects are only recorded in `rawMembers`, not built.
        var recordsRaw = false
        var rawMembers = JSONElementMembers()
        /// Set by `scanString` when the string it read had an escape.
        var sawEscape = false
        /// Members of the objects being read, innermost last: one growing buffer shared by every
        /// object, so each object's dictionary is allocated once at its final size.
        var members: [(String, JSONValue)] = []
        /// Keys of the objects being skipped, innermost last (see `SkippedKeys`).
        var skippedKeys: [UnsafeBufferPointer<UInt8>] = []

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, sizedMember: String) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
            self.sizedMember = sizedMember
        }

        func error(_ reason: String) -> JSONError { JSONError(offset: index, reason: reason) }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard index < bytes.count else { throw error("unexpected end of input") }
            if depth >= shallowFromDepth && insideSizedArray {
                switch bytes[index] {
                case UInt8(ascii: "{"):
                    try skipValue(depth: depth)
                    return .object([:])
                case UInt8(ascii: "["):
                    try skipValue(depth: depth)
                    return .array([])
                default:
                    break
                }
            }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: StaticString) throws(JSONError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw error("unexpected end of input") }
            let start = word.utf8Start
            for i in 0..<count where bytes[index + i] != start[i] {
                throw error("invalid literal")
            }
            index += count
        }

        mutating func object(depth: Int) throws(JSONError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("nesting too deep") }
            let recording = recordMembersOfNextObject
            recordMembersOfNextObject = false
            if recording { return try rawObject(depth: depth) }
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object([:])
            }
            let start = members.count
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                let element: JSONValue
                if depth == 1, key == sizedMember, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                    element = try array(depth: depth + 1, recordSizes: true)
                } else {
                    element = try value(depth: depth)
                }
                members.append((key, element))
                guard try endsContainer(UInt8(ascii: "}")) else { continue }
                var object = [String: JSONValue](minimumCapacity: members.count - start)
                for (key, value) in members[start...] {
                    // A repeated key is refused: readers disagree on which value wins, so a
                    // validator and a store could each see a different one.
                    guard object.updateValue(value, forKey: key) == nil else {
                        throw error("duplicate key \"\(key)\"")
                    }
                }
                members.removeSubrange(start...)
                return .object(object)
            }
        }

        /// Reads one object of the sized array into `rawMembers` without building it, `index`
        /// on its `{`: each member's key and value are checked as `object` would (values as
        /// `skipValue` does), a repeated key refused, and only where they lie is kept.
        mutating func rawObject(depth: Int) throws(JSONError) -> JSONValue {
            index += 1
            skipWhitespace()
            var keys = SkippedKeys(on: skippedKeys)
            defer { keys.finish(&skippedKeys) }
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                rawMembers.endElement()
                return .object([:])
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let memberStart = index
                sawEscape = false
                _ = try scanString(decoding: false)
                let keyHasEscapes = sawEscape
                guard
                    keys.insert(
                        UnsafeBufferPointer(rebasing: bytes[memberStart..<index]), hasEscapes: keyHasEscapes,
                        stack: &skippedKeys)
                else {
                    let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[memberStart..<index]), as: UTF8.self)
                    throw JSONError(offset: memberStart, reason: "duplicate key \(key)")
                }
                let key = (memberStart + 1)..<(index - 1)
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                let valueStart = index
                guard index < bytes.count else { throw error("unexpected end of input") }
                let kind: JSONRawMember.Kind
                sawEscape = false
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    _ = try scanString(decoding: false)
                    kind = .string
                case UInt8(ascii: "{"): kind = .object
                case UInt8(ascii: "["): kind = .array
                case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = .bool
                case UInt8(ascii: "n"): kind = .null
                default: kind = .number
                }
                if kind != .string { try skipValue(depth: depth) }
                rawMembers.append(
                    JSONRawMember(
                        range: memberStart..<index, key: key, value: valueStart..<index, kind: kind,
                        keyHasEscapes: keyHasEscapes, valueHasEscapes: kind == .string && sawEscape))
                if try endsContainer(UInt8(ascii: "}")) {
                    rawMembers.endElement()
                    return .object([:])
                }
            }
        }

        mutating func array(depth: Int, recordSizes: Bool = false) throws(JSONError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("nesting too deep") }
            // An array element of the sized array: its objects are not the ones to record.
            recordMembersOfNextObject = false
            if recordSizes { insideSizedArray = true }
            defer { if recordSizes { insideSizedArray = false } }
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                let start = index
                let recorded = rawMembers.count
                recordMembersOfNextObject = recordSizes && recordsRaw
                elements.append(try value(depth: depth))
                recordMembersOfNextObject = false
                if recordSizes {
                    elementSizes.append(index - start)
                    if recordsRaw && rawMembers.count == recorded { rawMembers.endElement() }
                }
                if try endsContainer(UInt8(ascii: "]")) { return .array(elements) }
            }
        }

        mutating func string() throws(JSONError) -> String {
            let (raw, unescaped) = try scanString(decoding: true)
            if let unescaped { return String(decoding: unescaped, as: UTF8.self) }
            // No escapes, so the bytes are the string.
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[raw]), as: UTF8.self)
        }

        /// Reads one string, `index` on its opening quote, to just past its closing quote, checking
        /// it as JSON requires (escapes, surrogate pairs, no control characters, well-formed
        /// UTF-8): `string` and `skipString` accept exactly the same strings.
        /// - Parameter decoding: whether to build the string's bytes when it has escapes.
        /// - Returns: the raw bytes between the quotes, and the decoded bytes when `decoding` and
        ///   the string has escapes (`nil`: the raw bytes are the string).
        mutating func scanString(decoding: Bool) throws(JSONError) -> (raw: Range<Int>, unescaped: [UInt8]?) {
            index += 1
            let start = index
            var nonASCII = false
            var out: [UInt8]?
            while index < bytes.count {
                let run = index
                var highBits: UInt64 = 0
                index = Self.endOfPlainRun(bytes, from: index, highBits: &highBits)
                if highBits != 0 { nonASCII = true }
                if index > run { out?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index])) }
                guard index < bytes.count else { break }
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    // Escapes are ASCII, so the raw text is valid UTF-8 exactly when the string is.
                    if nonASCII { try requireUTF8(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start) }
                    index += 1
                    return (start..<(index - 1), out)
                }
                if c < 0x20 { throw error("control character in string") }
                if c != UInt8(ascii: "\\") {
                    if c >= 0x80 { nonASCII = true }
                    out?.append(c)
                    index += 1
                    continue
                }
                if decoding && out == nil { out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                sawEscape = true
                let scalar = try escape()
                if scalar.isASCII {
                    out?.append(UInt8(scalar.value))
                } else {
                    out?.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
            }
            throw error("unterminated string")
        }

        /// Where the run of string bytes from `start` that need no look of their own ends: 8 bytes
        /// are tested at once for a quote, a backslash or a control character (the bytes the
        /// per-byte loop stops on), and the run ends exactly on the first such byte, or where
        /// fewer than 8 bytes are left. The bytes passed over are or-ed into `highBits`, whose
        /// top bits tell whether any of them is not ASCII. Each test is exact for the lowest
        /// matching byte: a borrow only starts at a byte that matches and only moves upwards.
        @inline(__always)
        static func endOfPlainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, highBits: inout UInt64) -> Int {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let tops: UInt64 = 0x8080_8080_8080_8080
            guard let base = bytes.baseAddress else { return start }
            var index = start
            var seen: UInt64 = 0
            while index &+ 8 <= bytes.count {
                // Little-endian order: the first byte in memory is the lowest.
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special =
                    (((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash))
                    & tops
                if special != 0 {
                    let before = special.trailingZeroBitCount / 8
                    if before > 0 { seen |= word & (UInt64.max >> UInt64(64 - 8 * before)) }
                    index &+= before
                    break
                }
                seen |= word
                index &+= 8
            }
            highBits = seen & tops
            return index
        }

        /// Reads one escape sequence, `index` on its backslash, and returns the character it
        /// stands for; surrogate pairs are joined and lone surrogates refused.
        mutating func escape() throws(JSONError) -> Unicode.Scalar {
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(e)
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("lone surrogate") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("lone surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid unicode escape") }
                return u
            default:
                throw error("invalid escape")
            }
        }

        /// Reads what follows a container's element: `true` past the container's `close`
        /// (`}` or `]`), `false` past a comma, so another element follows.
        /// - Throws: `JSONError` for anything else, or the end of input.
        mutating func endsContainer(_ close: UInt8) throws(JSONError) -> Bool {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            let next = bytes[index]
            guard next == UInt8(ascii: ",") || next == close else {
                throw error("expected ',' or '\(Character(Unicode.Scalar(close)))'")
            }
            index += 1
            return next == close
        }

        /// Checks one value exactly as `value` would, without building it.
        mutating func skipValue(depth: Int) throws(JSONError) {
            guard index < bytes.count else { throw error("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let open = bytes[index]
                let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard depth + 1 <= maximumDepth else { throw error("nesting too deep") }
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == close {
                    index += 1
                    return
                }
                var keys = SkippedKeys(on: skippedKeys)
                defer { keys.finish(&skippedKeys) }
                while true {
                    skipWhitespace()
                    if open == UInt8(ascii: "{") {
                        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                            throw error("expected a key")
                        }
                        let keyStart = index
                        sawEscape = false
                        try skipString()
                        let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<index])
                        if !keys.insert(key, hasEscapes: sawEscape, stack: &skippedKeys) {
                            throw JSONError(offset: keyStart, reason: "duplicate key")
                        }
                        skipWhitespace()
                        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                            throw error("expected ':'")
                        }
                        index += 1
                        skipWhitespace()
                    }
                    try skipValue(depth: depth + 1)
                    if try endsContainer(close) { return }
                }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
            default: throw error("unexpected character")
            }
        }

        /// Checks one string exactly as `string` would, without making it.
        mutating func skipString() throws(JSONError) {
            _ = try scanString(decoding: false)
        }

        /// Refuses bytes that are not well-formed UTF-8 (overlong forms, surrogates and
        /// truncated sequences included): text that is replaced when read but stored raw would
        /// let two different byte strings pass as one.
        func requireUTF8(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONError) {
            var iterator = raw.makeIterator()
            var decoder = UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: return
                case .error: throw JSONError(offset: offset, reason: "invalid UTF-8 in string")
                }
            }
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("truncated unicode escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
                default: throw error("invalid unicode escape")
                }
                v = v << 4 | d
                index += 1
            }
            return v
        }

        mutating func number() throws(JSONError) -> JSONValue {
            let start = index
            var negative = false
            if bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { throw error("invalid number") }
            var integer: UInt64 = 0
            var overflow = false
            if bytes[index] == 48 {
                index += 1
            } else {
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    let (m, o1) = integer.multipliedReportingOverflow(by: 10)
                    let (a, o2) = m.addingReportingOverflow(UInt64(bytes[index] - 48))
                    integer = a
                    overflow = overflow || o1 || o2
                    index += 1
                }
            }
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { throw error("invalid number") }
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { throw error("invalid number") }
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            }
            if isInteger, !overflow {
                if !negative, integer <= UInt64(Int64.max) { return .int(Int64(integer)) }
                if negative, integer <= UInt64(Int64.max) + 1 {
                    return .int(integer == UInt64(Int64.max) + 1 ? Int64.min : -Int64(integer))
                }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger { return .bigInteger(text) }
            guard let d = Double(text), d.isFinite else {
                throw JSONError(offset: start, reason: "number out of range")
            }
            return .double(d)
        }
    }
}
