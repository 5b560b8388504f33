/// Writes `JSONValue`s as compact JSON text into a byte buffer.
public struct JSONWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether object keys are written in sorted order (the default), so that one value always
    /// gives the same text. A hot path whose readers do not compare texts may turn it off.
    public var sortsKeys = true

    /// Creates a writer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Encodes one value as compact JSON.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    /// Encodes one value as a compact JSON string.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    /// Appends `value`. Non-finite doubles, which JSON cannot express, become `null`.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): write(integer: i)
        case .double(let d):
            if d.isFinite {
                // Swift prints the shortest text that reads back as the same Double.
                append(d.description)
            } else {
                append("null")
            }
        case .bigInteger(let text): append(text)
        case .string(let s): write(string: s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            // Keys in a fixed (sorted) order: a dictionary's own order changes from one instance
            // to the next, and the same value must always give the same text.
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(string: key)
                bytes.append(UInt8(ascii: ":"))
                write(value)
            }
            if sortsKeys && members.count > 1 {
                // (One member needs no sort, nor the sorted array's allocation.)
                for (key, value) in members.sorted(by: { $0.key < $1.key }) { member(key, value) }
            } else {
                for (key, value) in members { member(key, value) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func write(integer: Int64) {
        if integer == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }

    /// Appends a quoted, escaped string.
    public mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        // Fast path: most strings are native UTF-8 that needs no escaping, copied in one go.
        let copied: Bool? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(0x5C)
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends one raw byte (a delimiter).
    public mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends raw, already-valid JSON text.
    package mutating func append(raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    /// Appends raw, already-valid JSON text.
    package mutating func append(raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
