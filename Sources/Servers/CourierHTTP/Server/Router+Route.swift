extension Router {
    /// One route: what it matches, how it runs, and (once the server's `Responder` is built) its
    /// chains and metrics series.
    ///
    /// A value whose fields sit in one immutable box: the match, the request's context and every
    /// layer that copies them pass one reference, not a dozen. Setting a field (only while a
    /// router or a responder is built) puts the changed fields in a new box.
    struct Route: Sendable {
        /// The route's fields.
        struct Fields: Sendable {
            let method: HTTPMethod
            let pattern: String
            let segments: [Segment]
            let crossOrigin: CrossOriginPolicy
            let body: RequestBodyMode
            /// Where the route's middleware and handler run.
            var execution: RouteExecution = .task
            /// The middleware of the groups the route was added in, outermost first.
            let middleware: [any HTTPMiddleware]
            let handler: AsyncHTTPHandler
            /// The handler as added, when it was added as a synchronous `HTTPHandler`.
            var synchronousHandler: HTTPHandler? = nil
            /// Set for a route answered on the loop when its answer is in memory.
            var memoryAnswer: MemoryAnswer? = nil
            /// Set for a route that upgrades to a WebSocket (`webSocket(_:…)`).
            var webSocket: WebSocketRoute? = nil
            /// The path a route without parameters matches (`/a/b`), compared whole with a
            /// request's.
            var literalPath: String? = nil
            /// The route's group middleware, body layer and handler, chained once when the
            /// server's `Responder` is built (`nil` before), so a request allocates no closure per
            /// layer.
            var pipeline: HTTPResponder? = nil
            /// For an `.onLoop` route with a synchronous handler and no middleware that can wait:
            /// its whole chain (the server's layers, its groups', the body layer, the handler) as
            /// plain calls, run in the loop's callback (`Responder.respondOnLoop`). Set when the
            /// server's `Responder` is built (in `HTTPServer.init`).
            var loopPipeline: SynchronousHTTPResponder? = nil
            /// The route's metrics series for requests of its own method, found when the server's
            /// `Responder` is built.
            var metricsSeries: HTTPMetrics.SeriesBox? = nil
        }

        private final class Box: Sendable {
            let fields: Fields
            init(_ fields: Fields) { self.fields = fields }
        }

        private var box: Box

        init(
            method: HTTPMethod, pattern: String, segments: [Segment], crossOrigin: CrossOriginPolicy,
            body: RequestBodyMode, execution: RouteExecution, middleware: [any HTTPMiddleware],
            handler: @escaping AsyncHTTPHandler, synchronousHandler: HTTPHandler?, webSocket: WebSocketRoute?,
            literalPath: String?
        ) {
            box = Box(
                Fields(
                    method: method, pattern: pattern, segments: segments, crossOrigin: crossOrigin, body: body,
                    execution: execution, middleware: middleware, handler: handler,
                    synchronousHandler: synchronousHandler, webSocket: webSocket, literalPath: literalPath))
        }

        /// Changes one field: the others are copied into a new box, so copies made before keep
        /// theirs.
        private mutating func update(_ change: (inout Fields) -> Void) {
            var fields = box.fields
            change(&fields)
            box = Box(fields)
        }

        var method: HTTPMethod { box.fields.method }
        var pattern: String { box.fields.pattern }
        var segments: [Segment] { box.fields.segments }
        var crossOrigin: CrossOriginPolicy { box.fields.crossOrigin }
        var body: RequestBodyMode { box.fields.body }
        var execution: RouteExecution { box.fields.execution }
        var middleware: [any HTTPMiddleware] { box.fields.middleware }
        var handler: AsyncHTTPHandler { box.fields.handler }
        var synchronousHandler: HTTPHandler? { box.fields.synchronousHandler }
        var webSocket: WebSocketRoute? { box.fields.webSocket }
        var literalPath: String? { box.fields.literalPath }

        var memoryAnswer: MemoryAnswer? {
            get { box.fields.memoryAnswer }
            set { update { $0.memoryAnswer = newValue } }
        }

        var pipeline: HTTPResponder? {
            get { box.fields.pipeline }
            set { update { $0.pipeline = newValue } }
        }

        var loopPipeline: SynchronousHTTPResponder? {
            get { box.fields.loopPipeline }
            set { update { $0.loopPipeline = newValue } }
        }

        var metricsSeries: HTTPMetrics.SeriesBox? {
            get { box.fields.metricsSeries }
            set { update { $0.metricsSeries = newValue } }
        }
    }
}
