import CourierCore

/// An observer's rows kept sorted by id, as SQLite's `ORDER BY id` sorts them (by bytes), and
/// brought up to date in place.
extension [LocalRecord] {
    /// Applies what changed, each id to its state (`nil`: deleted), in one pass over the rows: a
    /// present record is replaced where it is, a deleted one removed, and new ones merged in
    /// order from the back. Inserting records one by one would move the rows after each of them
    /// once per record (a burst of new records into a large collection moved the whole collection
    /// once per record); here a row moves at most twice for the whole batch (once to
    /// close the places of removed rows, once to make room for new ones), and by moves, not copies.
    mutating func apply(_ changes: [ExactText: LocalRecord?]) {
        if changes.count == 1, let change = changes.first {
            place(change.value, id: change.key.text)
            return
        }
        var removed: [Int] = []
        var inserted: [LocalRecord] = []
        for (key, record) in changes {
            let id = key.text
            let index = insertionIndex(of: id)
            let found = index < count && self[index].id.hasSameBytes(as: id)
            switch (found, record) {
            case (true, let record?): self[index] = record
            case (true, nil): removed.append(index)
            case (false, let record?): inserted.append(record)
            case (false, nil): break
            }
        }
        remove(sortedIndices: removed.sorted())
        merge(inserted.sorted { $0.id.precedesInBytes($1.id) })
    }

    /// Puts `record` where `id` belongs: replaces the row with that id, inserts it in order, or
    /// removes the row when `record` is `nil`.
    mutating func place(_ record: LocalRecord?, id: String) {
        let index = insertionIndex(of: id)
        let found = index < count && self[index].id.hasSameBytes(as: id)
        switch (found, record) {
        case (true, let record?): self[index] = record
        case (true, nil): remove(at: index)
        case (false, let record?): insert(record, at: index)
        case (false, nil): break
        }
    }

    /// The first index below `end` (all rows by default) whose id does not sort before `id`
    /// (binary search).
    private func insertionIndex(of id: String, below end: Int? = nil) -> Int {
        var low = 0
        var high = end ?? count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].id.precedesInBytes(id) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Removes the rows at `indices` (ascending, distinct), moving each later row down once.
    private mutating func remove(sortedIndices indices: [Int]) {
        guard let first = indices.first else { return }
        withUnsafeMutableBufferPointer { rows in
            var write = first
            var next = 0
            for read in first..<rows.count {
                if next < indices.count && indices[next] == read {
                    next += 1
                } else {
                    rows.swapAt(write, read)
                    write += 1
                }
            }
        }
        removeLast(indices.count)
    }

    /// Merges `records` (sorted by id, none already present) into the rows, from the back: each
    /// new record's place is found by binary search, and each row after the first new record's
    /// place moves once.
    private mutating func merge(_ records: [LocalRecord]) {
        guard !records.isEmpty else { return }
        var end = count
        append(contentsOf: repeatElement(Self.placeholder, count: records.count))
        var write = count
        for record in records.reversed() {
            let place = insertionIndex(of: record.id, below: end)
            withUnsafeMutableBufferPointer { rows in
                for index in (place..<end).reversed() {
                    write -= 1
                    rows.swapAt(index, write)
                }
            }
            write -= 1
            self[write] = record
            end = place
        }
    }

    /// A row that holds no storage, standing in for a place about to be filled.
    private static let placeholder = LocalRecord(collection: "", id: "", fields: [:], version: 0, isPending: false)
}
