#if canImport(Network)
    import Network

    /// `NWPathMonitor` as a `NetworkPathMonitor`: `true` while the path is `.satisfied`.
    public struct SystemPathMonitor: NetworkPathMonitor {
        /// A monitor of every interface.
        public init() {}

        /// The path's availability, from a new `NWPathMonitor` that stops when the stream ends.
        public func updates() -> AsyncStream<Bool> {
            AsyncStream { continuation in
                let monitor = NWPathMonitor()
                monitor.pathUpdateHandler = { path in continuation.yield(path.status == .satisfied) }
                continuation.onTermination = { _ in monitor.cancel() }
                monitor.start(queue: DispatchQueue(label: "courier.realtime.path"))
            }
        }
    }
#endif
