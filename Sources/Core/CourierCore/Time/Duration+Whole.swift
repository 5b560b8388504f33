extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64`'s bounds instead of trapping.
    public var wholeNanoseconds: Int64 { whole(unitsPerSecond: 1_000_000_000) }

    /// The duration in whole milliseconds, saturating at `Int64`'s bounds instead of trapping.
    public var wholeMilliseconds: Int64 { whole(unitsPerSecond: 1000) }

    private func whole(unitsPerSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        let saturated = seconds < 0 ? Int64.min : Int64.max
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
        if overflow { return saturated }
        let (sum, sumOverflow) = scaled.addingReportingOverflow(
            attoseconds / (1_000_000_000_000_000_000 / unitsPerSecond))
        return sumOverflow ? saturated : sum
    }
}
