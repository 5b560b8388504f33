#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The keys of one object that the parser checks without building: tells whether a key repeats.
///
/// Keys are compared as written (with escapes decoded when they have any), without making a
/// `String` for each: a few keys are compared one by one in a stack the reader shares between
/// all the objects it skips (so no object allocates for them), more go through a set of their
/// bytes. An object with a key beyond ASCII also compares its keys as `String`s, as the
/// dictionary of a built object does: two spellings of one text (`é` composed, and `e` with a
/// combining accent; the Kelvin sign and `K`) are one key there, and a stored message that a
/// later reader cannot build would be refused by that reader, not by the collector.
struct SkippedKeys {
    /// Keys before this many are compared one by one; from then on through `large`.
    private static let smallCount = 16
    /// Where this object's keys start in the shared stack.
    private let base: Int
    private var large: Set<[UInt8]> = []
    private var decodedEscapes: [[UInt8]] = []
    /// Every key as text, once the object has a key beyond ASCII (`nil` before).
    private var texts: Set<String>?

    /// Starts an object whose keys go on `stack` from its current end.
    init(on stack: [UnsafeBufferPointer<UInt8>]) { base = stack.count }

    /// Takes this object's keys off `stack` (call when the object ends).
    func finish(_ stack: inout [UnsafeBufferPointer<UInt8>]) {
        if stack.count > base { stack.removeSubrange(base...) }
    }

    /// Adds a quoted key (its quotes included); returns `false` if the object already has it.
    /// - Parameter hasEscapes: whether the key has an escape (the reader knows it from its scan).
    mutating func insert(
        _ quoted: UnsafeBufferPointer<UInt8>, hasEscapes: Bool, stack: inout [UnsafeBufferPointer<UInt8>]
    ) -> Bool {
        let raw = UnsafeBufferPointer(rebasing: quoted[(quoted.startIndex + 1)..<(quoted.endIndex - 1)])
        if hasEscapes {
            // Rare: `"a"` and `"\u0061"` are the same key, so compare the decoded text.
            guard let text = try? JSONParser.parse(Array(quoted)).stringValue else { return true }
            let decoded = Array(text.utf8)
            if !large.isEmpty {
                guard large.insert(decoded).inserted else { return false }
            } else {
                if decodedEscapes.contains(decoded) || stack[base...].contains(where: { $0.elementsEqual(decoded) }) {
                    return false
                }
                decodedEscapes.append(decoded)
                growIfLarge(&stack)
            }
            return isNewText(decoded, stack: stack)
        }
        if large.isEmpty {
            for index in base..<stack.count where Self.same(stack[index], raw) { return false }
            if !decodedEscapes.isEmpty && decodedEscapes.contains(where: { $0.elementsEqual(raw) }) { return false }
            stack.append(raw)
            growIfLarge(&stack)
        } else {
            guard large.insert(Array(raw)).inserted else { return false }
        }
        return isNewText(raw, stack: stack)
    }

    /// Moves the keys into `large` once there are more than `smallCount` (escaped ones too: a
    /// list of many would be scanned once per key).
    private mutating func growIfLarge(_ stack: inout [UnsafeBufferPointer<UInt8>]) {
        guard stack.count - base + decodedEscapes.count > Self.smallCount else { return }
        large = Set(stack[base...].map { Array($0) } + decodedEscapes)
        stack.removeSubrange(base...)
        decodedEscapes = []
    }

    /// Whether no earlier key of the object is the same text as `key` (already added by its
    /// bytes). Free while every key is ASCII: an ASCII key equals another spelling only if that
    /// one is not ASCII, which starts the comparison of texts with every key seen so far.
    private mutating func isNewText(_ key: some Collection<UInt8>, stack: [UnsafeBufferPointer<UInt8>]) -> Bool {
        if texts == nil {
            guard key.contains(where: { $0 >= 0x80 }) else { return true }
            // The keys so far, this one among them (it was added by its bytes): all different
            // bytes, but perhaps one text.
            let earlier =
                stack[base...].map { String(decoding: $0, as: UTF8.self) }
                + (large.isEmpty ? decodedEscapes : Array(large)).map { String(decoding: $0, as: UTF8.self) }
            let unique = Set(earlier)
            texts = unique
            return unique.count == earlier.count
        }
        return texts!.insert(String(decoding: key, as: UTF8.self)).inserted
    }

    /// Whether two keys have the same bytes: lengths first, most keys differ there.
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }
}
