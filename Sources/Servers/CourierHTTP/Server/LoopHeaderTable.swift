import Synchronization

/// One request's headers as lws parsed them, read a name at a time while the loop's callback
/// holds the request, instead of copying every header into a dictionary before the handler
/// runs: most handlers and middleware ask for a few names, and the whole table is about 90 slots.
///
/// lws keeps the table only until the transaction ends, so the engine calls `leaveLoop(shared:)`
/// before its callback returns: a table that nothing else holds is then dropped, and one that a
/// copy of the request still holds (a handler that suspended, or that kept the request) is
/// copied whole into a dictionary first. Reads are serialised by a lock, so a copy read on
/// another thread while the callback runs reads the table as the loop left it.
final class LoopHeaderTable: Sendable {
    /// `@unchecked`: the `wsi` is read only under the lock, and only until `leaveLoop`, which the
    /// loop's thread calls before lws's table can change.
    private enum State: @unchecked Sendable {
        case onLoop(wsi: OpaquePointer, extraNames: [String])
        case copied([String: String])
        case left
    }

    private let state: Mutex<State>

    /// A table to read from `wsi` while its callback runs; `extraNames` are the configuration's
    /// extra header names, lowercased.
    init(wsi: OpaquePointer, extraNames: [String]) {
        state = Mutex(.onLoop(wsi: wsi, extraNames: extraNames))
    }

    /// The header `name` (lowercase), a repeated one joined with `, `.
    func value(_ name: String) -> String? {
        read(name) { wsi, extraNames in LibWebSocketsHeaders.value(wsi, name, extraNames: extraNames) }
    }

    /// One of the headers the server reads on every request.
    func value(_ known: KnownHeader) -> String? {
        read(known.name) { wsi, _ in LibWebSocketsHeaders.value(wsi, known) }
    }

    /// Every header, copied once into a dictionary (later reads use it).
    var all: [String: String] { copied() ?? Self.readAfterLeaving() ?? [:] }

    /// Ends the reads from lws: copies the table when a request that outlives the callback still
    /// holds it (`shared`), and otherwise lets it go.
    /// - Returns: the copy, when there is one.
    func leaveLoop(shared: Bool) -> [String: String]? {
        if shared { return copied() }
        state.withLock { state in
            if case .onLoop = state { state = .left }
        }
        return nil
    }

    /// The header `name`: read from lws by `onLoop` while the callback runs, else from the copy.
    private func read(_ name: String, onLoop: (OpaquePointer, [String]) -> String?) -> String? {
        state.withLock { state in
            switch state {
            case .onLoop(let wsi, let extraNames): onLoop(wsi, extraNames)
            case .copied(let headers): headers[name]
            case .left: Self.readAfterLeaving()
            }
        }
    }

    /// The whole table as a dictionary, copied from lws the first time; `nil` once let go.
    private func copied() -> [String: String]? {
        state.withLock { state in
            switch state {
            case .onLoop(let wsi, let extraNames):
                let headers = LibWebSocketsHeaders.all(wsi, extraNames: extraNames)
                state = .copied(headers)
                return headers
            case .copied(let headers): return headers
            case .left: return nil
            }
        }
    }

    /// Nothing can hold a table that has left the loop without a copy (`leaveLoop` copies it for
    /// any holder); a read of one is a defect in the engine.
    private static func readAfterLeaving<T>() -> T? {
        assertionFailure("a request's headers were read after its callback ended")
        return nil
    }
}
