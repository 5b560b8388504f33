/// Where a route's middleware and handler run.
public enum RouteExecution: Sendable, Equatable {
    /// As a task on the server's handler threads (the default): the engine's loop hands the
    /// request over and goes on serving other connections while the handler runs.
    case task
    /// On the engine's loop thread, in the loop turn that read the request, with no hand-off to
    /// another thread and back. For routes that never make a thread wait (no file, database or
    /// lock waits, no long computation): health, metrics, documents served from memory.
    ///
    /// A handler that awaits still works: it suspends, and continues on the loop when it is
    /// woken. What it does without awaiting holds every connection of that loop, so a route that
    /// can block must stay `.task`.
    case onLoop
}
