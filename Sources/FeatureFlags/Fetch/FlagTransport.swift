import CourierCore

/// The flag client's network seam: the client libraries' shared `DataTransport`; a fetch is a
/// `GET` with validators.
public typealias FlagTransport = DataTransport

/// What a flag fetch got back: the shared transport's result.
public typealias FlagTransportResult = TransportResult
