/// A semantic version (`1.4.0`, `2.0.0-beta.3`), compared by SemVer 2.0 precedence; build
/// metadata (`+…`) is ignored.
package struct Semver: Sendable, Comparable {
    let core: [UInt64]
    let prerelease: [Substring]

    /// Parses `major.minor.patch[-prerelease][+build]`, with an optional leading `v`; a missing
    /// minor or patch counts as 0.
    package init?(_ text: String) {
        var rest = Substring(text)
        if rest.first == "v" || rest.first == "V" { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: "+") { rest = rest[..<plus] }
        var pre: [Substring] = []
        if let dash = rest.firstIndex(of: "-") {
            pre = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
            guard !pre.contains(where: \.isEmpty) else { return nil }
            rest = rest[..<dash]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = UInt64(part) else {
                return nil
            }
            numbers.append(n)
        }
        while numbers.count < 3 { numbers.append(0) }
        core = numbers
        prerelease = pre
    }

    package static func == (a: Semver, b: Semver) -> Bool { a.core == b.core && a.prerelease == b.prerelease }

    package static func < (a: Semver, b: Semver) -> Bool {
        if a.core != b.core { return a.core.lexicographicallyPrecedes(b.core) }
        // A pre-release sorts before its release.
        if a.prerelease.isEmpty || b.prerelease.isEmpty { return !a.prerelease.isEmpty && b.prerelease.isEmpty }
        for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
            switch (UInt64(x), UInt64(y)) {
            case (let m?, let n?): return m < n
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return x < y
            }
        }
        return a.prerelease.count < b.prerelease.count
    }
}
