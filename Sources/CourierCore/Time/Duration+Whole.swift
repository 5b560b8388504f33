extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64`'s bounds instead of trapping.
    public var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? Int64.min : Int64.max }
        return sum
    }

    /// The duration in whole milliseconds, saturating at `Int64`'s bounds instead of trapping.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if sumOverflow { return seconds < 0 ? Int64.min : Int64.max }
        return sum
    }
}
