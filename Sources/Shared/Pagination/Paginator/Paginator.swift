/// Pages a list both ways with keyset cursors: `before` for history, `after` for catch-up.
///
/// It prefetches when a row near either edge of the window appears, never runs two loads in the
/// same direction at once, drops rows it already holds (by id), keeps at most `windowLimit` rows
/// around where the user is (dropping the far side, which it can page back in), can jump to a row
/// deep in history, and starts again from the latest rows when a cursor expires.
///
/// ```swift
/// let paginator = Paginator(source: messages, id: \.id, pageSize: 50)
/// try await paginator.loadLatest()
/// // in the list's cell provider:
/// try await paginator.rowAppeared(at: indexPath.row)
/// ```
public actor Paginator<Source: PageSource> {
    /// The row type.
    public typealias Item = Source.Item

    private let source: Source
    private let id: @Sendable (Item) -> String
    private let pageSize: Int
    private let prefetchDistance: Int
    private let windowLimit: Int

    private var edges: [PageEdge<Item>] = []
    private var ids: Set<String> = []
    private var loadingBefore = false
    private var loadingAfter = false
    private var generation = 0

    /// Whether older rows exist beyond the window.
    public private(set) var hasMoreBefore = false
    /// Whether newer rows existed beyond the window at the last load.
    public private(set) var hasMoreAfter = false
    /// Every time the paginator started again from the top, and why.
    public private(set) var resets: [PaginatorReset] = []
    /// How many loads the source was asked for.
    public private(set) var loadCount = 0

    /// Creates a paginator.
    /// - Parameters:
    ///   - source: where pages come from.
    ///   - id: a row's id, for de-duplication across pages.
    ///   - pageSize: rows per load.
    ///   - prefetchDistance: load more when a row this close to an edge appears (5–10 suits lists).
    ///   - windowLimit: the most rows kept; at least two pages.
    public init(
        source: Source, id: @escaping @Sendable (Item) -> String, pageSize: Int = 50, prefetchDistance: Int = 8,
        windowLimit: Int = 500
    ) {
        self.source = source
        self.id = id
        self.pageSize = max(1, pageSize)
        self.prefetchDistance = max(0, prefetchDistance)
        self.windowLimit = max(2 * max(1, pageSize), windowLimit)
    }

    /// The rows in the window, oldest first.
    public var items: [Item] { edges.map(\.item) }

    /// Replaces the window with the latest rows.
    /// - Throws: what the source throws.
    public func loadLatest() async throws {
        try await replace(with: .latest)
    }

    /// Replaces the window with the rows around the row `id` (a jump into history); page both
    /// ways from there.
    /// - Throws: what the source throws.
    public func jump(to id: String) async throws {
        try await replace(with: .around(id))
    }

    /// Tells the paginator that the row at `index` of `items` is about to show; loads older or
    /// newer rows when it is within the prefetch distance of an edge.
    /// - Throws: what the source throws.
    public func rowAppeared(at index: Int) async throws {
        if index <= prefetchDistance && hasMoreBefore { try await loadBefore() }
        if index >= edges.count - 1 - prefetchDistance && hasMoreAfter { try await loadAfter() }
    }

    /// Loads the page before the window's first row, unless such a load is already running.
    /// - Returns: whether a load ran.
    /// - Throws: what the source throws.
    @discardableResult
    public func loadBefore() async throws -> Bool { try await extend(older: true) }

    /// Loads the page after the window's last row (catch-up), unless such a load is running.
    /// - Returns: whether a load ran.
    /// - Throws: what the source throws.
    @discardableResult
    public func loadAfter() async throws -> Bool { try await extend(older: false) }

    /// Adds a page at one edge and, past `windowLimit`, drops rows at the other.
    private func extend(older: Bool) async throws -> Bool {
        guard !(older ? loadingBefore : loadingAfter), let edge = older ? edges.first : edges.last else { return false }
        setLoading(older: older, true)
        defer { setLoading(older: older, false) }
        let started = generation
        guard let page = try await load(older ? .before(edge.cursor) : .after(edge.cursor)), started == generation
        else { return true }
        let fresh = page.edges.filter { ids.insert(id($0.item)).inserted }
        if older {
            edges.insert(contentsOf: fresh, at: 0)
            hasMoreBefore = page.hasMoreBefore
        } else {
            edges.append(contentsOf: fresh)
            hasMoreAfter = page.hasMoreAfter
        }
        let excess = edges.count - windowLimit
        guard excess > 0 else { return true }
        for dropped in older ? edges.suffix(excess) : edges.prefix(excess) { ids.remove(id(dropped.item)) }
        if older {
            edges.removeLast(excess)
            hasMoreAfter = true
        } else {
            edges.removeFirst(excess)
            hasMoreBefore = true
        }
        return true
    }

    private func setLoading(older: Bool, _ value: Bool) {
        if older { loadingBefore = value } else { loadingAfter = value }
    }

    private func replace(with position: PageLoad) async throws {
        generation += 1
        let started = generation
        guard let page = try await load(position), started == generation else { return }
        install(page)
    }

    /// One load; an expired cursor resets the window to the latest rows and returns `nil`.
    private func load(_ position: PageLoad) async throws -> Page<Item>? {
        loadCount += 1
        do {
            return try await source.load(position, limit: pageSize)
        } catch PageSourceError.cursorExpired {
            resets.append(.cursorExpired)
            generation += 1
            let started = generation
            loadCount += 1
            let page = try await source.load(.latest, limit: pageSize)
            if started == generation { install(page) }
            return nil
        }
    }

    /// Makes `page` the whole window.
    private func install(_ page: Page<Item>) {
        edges = []
        ids = []
        for edge in page.edges where ids.insert(id(edge.item)).inserted { edges.append(edge) }
        hasMoreBefore = page.hasMoreBefore
        hasMoreAfter = page.hasMoreAfter
    }
}
