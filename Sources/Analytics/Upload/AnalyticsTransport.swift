import CourierCore

/// The SDK's network seam: the client libraries' shared `DataTransport` (URLSession in apps,
/// fakes in tests).
public typealias AnalyticsTransport = DataTransport
