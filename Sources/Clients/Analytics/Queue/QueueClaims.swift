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

    /// A queue file's identity: the write key and the storage directory (`nil` for the default
    /// folder). Kept as given and compared only when two write keys match, so `Analytics.init`
    /// pays for no `Hashable` dictionary, no URL parsing and no file-system call: in a fresh
    /// process the first dictionary (keyed by a type of its own or by `String`) cost about
    /// 300 µs, and standardizing a URL about 5 µs. The folders compare as written, without a
    /// trailing slash: a folder named two ways, through `..` or a symbolic link say, is two files
    /// to the claims, and the file lock then keeps the second instance in memory (macOS, Linux;
    /// on iOS-family, where no lock is taken, a folder must be named one way).
    struct Key: Sendable {
        let storageDirectory: URL?
        let writeKey: String

        init(_ configuration: AnalyticsConfiguration) {
            storageDirectory = configuration.storageDirectory
            writeKey = configuration.writeKey
        }

        /// Which of the claims' lists holds this key: FNV-1a of the write key's bytes, mod 64.
        var list: Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in writeKey.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return Int(hash & 63)
        }

        func names(theSameFileAs other: Key) -> Bool {
            writeKey == other.writeKey && Self.written(storageDirectory) == Self.written(other.storageDirectory)
        }

        private static func written(_ folder: URL?) -> String? {
            folder.map { url in
                let written = url.absoluteString
                return written.count > 1 && written.hasSuffix("/") ? String(written.dropLast()) : written
            }
        }
    }

    /// The instances holding a file, in 64 short lists by a hash of the write key (FNV-1a of
    /// its bytes), so a claim searches only the instances whose key lands in its list.
    private let holders = Mutex<[[QueueHolder]]>(Array(repeating: [], count: 64))

    /// Claims `key`'s file for the instance that posts to `mailbox`, retiring the instance that
    /// held it if the app still holds that one: a short search, cheap enough for `Analytics.init`.
    func claim(_ key: Key, for mailbox: Mailbox) -> QueueClaim {
        let holder = QueueHolder(key: key, mailbox: mailbox, claims: self)
        let list = key.list
        let previous = holders.withLock { holders -> QueueHolder? in
            guard let index = holders[list].firstIndex(where: { $0.key.names(theSameFileAs: key) }) else {
                holders[list].append(holder)
                return nil
            }
            defer { holders[list][index] = holder }
            return holders[list][index]
        }
        previous?.mailbox.close(replaced: true)
        return QueueClaim(holder: holder, predecessor: previous)
    }

    /// Forgets `holder` if it still holds its file (a successor may have replaced it already).
    fileprivate func remove(_ holder: QueueHolder) {
        let list = holder.key.list
        holders.withLock { holders in holders[list].removeAll { $0 === holder } }
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
