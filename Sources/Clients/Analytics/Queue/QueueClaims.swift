import Foundation
import Synchronization

/// Which instance of this process writes each write key's queue file. A file has one writer (two
/// would each upload the other's rows as their own), and the newest instance is it: an app that
/// configures again, or replaces the instance it holds, expects the new one to carry on with the
/// saved consent and ids. The instance it replaces is retired: its mailbox is closed (later calls
/// are dropped as `replaced`), and the new one opens the file once the old one's pipeline has
/// written what it was given and closed it. Another process with the file (an app extension) is
/// kept out by the queue's file lock where one is taken (`EventQueue.open`).
///
/// Process-wide on purpose: the file it guards is shared by every instance of the process, and
/// the tests' instances each use a folder of their own, so none sees another's claims.
final class QueueClaims: Sendable {
    /// The claims of this process.
    static let process = QueueClaims()

    /// A queue file's identity, built on the caller's thread with no file-system call and no
    /// parsing (standardizing the URL would cost about 5 µs of `configure`): the write key and the
    /// storage directory's URL as written, without a trailing slash (`nil` for the default
    /// folder). A folder named two ways, through `..` or a symbolic link say, is two keys; the
    /// file lock then keeps the second instance in memory.
    struct Key: Hashable, Sendable {
        let storageDirectory: String?
        let writeKey: String

        init(_ configuration: AnalyticsConfiguration) {
            storageDirectory = configuration.storageDirectory.map { url in
                let written = url.absoluteString
                return written.count > 1 && written.hasSuffix("/") ? String(written.dropLast()) : written
            }
            writeKey = configuration.writeKey
        }
    }

    private let holders = Mutex<[Key: QueueHolder]>([:])

    /// Claims `key`'s file for the instance that posts to `mailbox`, retiring the instance that
    /// held it if the app still holds that one: a dictionary look-up, cheap enough for
    /// `Analytics.init`.
    func claim(_ key: Key, for mailbox: Mailbox) -> QueueClaim {
        let (holder, previous) = holders.withLock { holders in
            let holder = QueueHolder(key: key, mailbox: mailbox, claims: self)
            let previous = holders.updateValue(holder, forKey: key)
            return (holder, previous)
        }
        previous?.mailbox.close(replaced: true)
        return QueueClaim(holder: holder, predecessor: previous)
    }

    /// Forgets `holder` if it is still `key`'s (a successor may have replaced it already).
    fileprivate func remove(_ holder: QueueHolder) {
        holders.withLock { holders in
            if holders[holder.key] === holder { holders[holder.key] = nil }
        }
    }
}

/// An instance's hold on its queue file, handed from `Analytics.init` to its pipeline.
struct QueueClaim: Sendable {
    /// What the pipeline lets go when it has closed the file (`nil` outside the registry).
    let holder: QueueHolder?
    /// The instance this one replaced: its pipeline closes the file before this one opens it.
    let predecessor: QueueHolder?

    /// A claim with nobody to wait for (a pipeline made without an instance).
    static let unregistered = QueueClaim(holder: nil, predecessor: nil)
}

/// One instance's hold on a queue file, awaited by the instance that replaces it.
final class QueueHolder: Sendable {
    fileprivate let key: QueueClaims.Key
    /// The instance's mailbox: closed once the app released the instance or a newer one
    /// replaced it.
    let mailbox: Mailbox
    private let claims: QueueClaims
    private let state = Mutex(State())

    private struct State {
        var letGo = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    fileprivate init(key: QueueClaims.Key, mailbox: Mailbox, claims: QueueClaims) {
        self.key = key
        self.mailbox = mailbox
        self.claims = claims
    }

    /// Returns once the pipeline has closed the file.
    func lettingGo() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if !state.letGo { state.waiters.append(continuation) }
                return state.letGo
            }
            if done { continuation.resume() }
        }
    }

    /// Says the pipeline has closed the file: whoever waits to open it goes on.
    func letGo() {
        claims.remove(self)
        let waiters = state.withLock { state in
            state.letGo = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
