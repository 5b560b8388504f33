#if !canImport(Darwin)
    internal import CLibWebSockets

    /// What other threads hand the client's loop thread, guarded by the service's `Mutex`; every
    /// entry is followed by `lws_cancel_service` under the same lock, so the loop wakes and takes
    /// it (LWS_CALLBACK_EVENT_WAIT_CANCELLED), and a context being destroyed is never woken.
    package struct LibWebSocketsClientMailbox: ~Copyable {
        /// The context's address while the loop runs; `nil` before and after.
        var contextAddress: UInt?
        var context: OpaquePointer? { contextAddress.flatMap { OpaquePointer(bitPattern: $0) } }
        /// The loop has stopped or is stopping: no new connection is taken.
        var stopping = false
        var nextID: UInt64 = 1
        /// Ids handed out whose request has not been submitted yet.
        var reserved: Set<UInt64> = []
        /// Reserved ids whose task was cancelled before submitting.
        var cancelledEarly: Set<UInt64> = []
        /// Requests for the loop to start.
        var connects: [(UInt64, LibWebSocketsClientRequest)] = []
        /// Connections whose caller stopped waiting (the task was cancelled).
        var cancels: [UInt64] = []
        /// Connections whose channel has something to write.
        var writes: [UInt64] = []
        /// Connections whose reader has made room: read again.
        var resumes: [UInt64] = []
    }
#endif
