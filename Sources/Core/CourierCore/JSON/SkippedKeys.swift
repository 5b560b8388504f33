/// The keys of one object that the parser checks without building: tells whether a key repeats.
///
/// Keys are compared as written (with escapes decoded when they have any), without making a
/// `String` for each: a few keys are compared one by one, more go through a set of their bytes.
struct SkippedKeys {
    private var small: [UnsafeBufferPointer<UInt8>] = []
    private var large: Set<[UInt8]> = []
    private var decodedEscapes: [[UInt8]] = []

    /// Adds a quoted key (its quotes included); returns `false` if the object already has it.
    mutating func insert(_ quoted: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeBufferPointer(rebasing: quoted.dropFirst().dropLast())
        if raw.contains(UInt8(ascii: "\\")) {
            // Rare: `"a"` and `"\u0061"` are the same key, so compare the decoded text.
            guard let text = try? JSONParser.parse(Array(quoted)).stringValue else { return true }
            let decoded = Array(text.utf8)
            if decodedEscapes.contains(decoded) || large.contains(decoded)
                || small.contains(where: { $0.elementsEqual(decoded) })
            {
                return false
            }
            decodedEscapes.append(decoded)
            if !large.isEmpty { large.insert(decoded) }
            return true
        }
        if large.isEmpty {
            if small.contains(where: { $0.elementsEqual(raw) }) { return false }
            if decodedEscapes.contains(where: { $0.elementsEqual(raw) }) { return false }
            small.append(raw)
            if small.count > 16 {
                large = Set(small.map { Array($0) } + decodedEscapes)
                small.removeAll()
            }
            return true
        }
        return large.insert(Array(raw)).inserted
    }
}
