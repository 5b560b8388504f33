import CourierHTTP

extension HTTPServer {
    /// A server with `router`'s routes and the default configuration, started on a free port.
    static func started(_ router: Router) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }
}
