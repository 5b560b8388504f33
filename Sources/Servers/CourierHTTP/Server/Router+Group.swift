extension Router {
    /// Adds routes that share a path prefix and middleware (Hummingbird's `RouterGroup` is the
    /// model): the group's middleware runs only for the routes added in `build`, after the
    /// server-wide middleware and before the body is decoded and the handler runs. A nested group
    /// adds its prefix after its parent's, and its middleware inside its parent's.
    ///
    /// ```swift
    /// router.group("/v1/flags", middleware: [AdminAuthMiddleware(token: adminToken)]) { admin in
    ///     admin.add("PUT", "/{envKey}/definitions/{flagKey}") { request in try putDefinition(request) }
    /// }
    /// ```
    /// - Parameters:
    ///   - prefix: a path put before each pattern of the group (`/v1/flags`); none by default.
    ///   - middleware: what runs around the group's routes, outermost first.
    ///   - build: adds the group's routes (and nested groups) to the router it is given.
    public mutating func group(
        _ prefix: String = "", middleware: [any HTTPMiddleware] = [], _ build: (inout Router) throws -> Void
    ) rethrows {
        var group = Router()
        group.prefix = self.prefix + Self.segments(prefix)
        group.middleware = self.middleware + middleware
        try build(&group)
        routes += group.routes
    }
}
