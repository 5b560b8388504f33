/// Comparisons of secrets whose time does not depend on where they differ.
public enum ConstantTime {
    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    public static func equals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0 && x.count == y.count
    }
}
