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
/// bytes.
struct SkippedKeys {
    /// Where this object's keys start in the shared stack.
    private let base: Int
    private var large: Set<[UInt8]> = []
    private var decodedEscapes: [[UInt8]] = []

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
            if decodedEscapes.contains(decoded) || large.contains(decoded)
                || stack[base...].contains(where: { $0.elementsEqual(decoded) })
            {
                return false
            }
            decodedEscapes.append(decoded)
            if !large.isEmpty { large.insert(decoded) }
            return true
        }
        if large.isEmpty {
            for index in base..<stack.count where Self.same(stack[index], raw) { return false }
            if !decodedEscapes.isEmpty && decodedEscapes.contains(where: { $0.elementsEqual(raw) }) { return false }
            stack.append(raw)
            if stack.count - base > 16 {
                large = Set(stack[base...].map { Array($0) } + decodedEscapes)
                stack.removeSubrange(base...)
            }
            return true
        }
        return large.insert(Array(raw)).inserted
    }

    /// Whether two keys have the same bytes: lengths first, most keys differ there.
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }
}
