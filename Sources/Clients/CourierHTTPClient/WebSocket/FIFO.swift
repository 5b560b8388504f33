/// A first-in first-out queue that reuses its storage: taking from the front advances an index
/// instead of shifting the elements (and lets go of the element taken), and the storage is emptied
/// once all are taken.
package struct FIFO<Element> {
    private var elements: [Element?] = []
    private var head = 0

    /// Elements not yet taken.
    package var count: Int { elements.count - head }
    /// Whether none is left.
    package var isEmpty: Bool { head == elements.count }

    /// Adds `element` at the back.
    package mutating func append(_ element: Element) { elements.append(element) }

    /// Takes the front element, if any.
    package mutating func pop() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        elements[head] = nil
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }
}

/// What one reading task is given, in order: an item goes straight to the reader when it is parked
/// waiting, else it is kept until the reader asks. A value its owner keeps under its lock, with
/// its own end state beside it; the owner resumes the reader this gives back (WebSocket channels,
/// streamed request bodies, test sockets).
package struct ReaderQueue<Element, Failure: Error> {
    /// A parked reader: resumed with an item, or with `nil` (or a failure) at the end.
    package typealias Reader = CheckedContinuation<Element?, Failure>

    private var items = FIFO<Element>()
    private var reader: Reader?

    /// Nothing kept, no reader.
    package init() {}

    /// Items kept, not taken yet.
    package var count: Int { items.count }
    /// Whether a reader is parked.
    package var hasReader: Bool { reader != nil }

    /// Gives `item` to the parked reader, returned to be resumed with it, or keeps it.
    package mutating func offer(_ item: Element) -> Reader? {
        if let reader {
            self.reader = nil
            return reader
        }
        items.append(item)
        return nil
    }

    /// Takes the oldest item kept.
    package mutating func take() -> Element? { items.pop() }

    /// Parks `reader` until the next `offer` or `unpark`.
    package mutating func park(_ reader: Reader) { self.reader = reader }

    /// Removes the parked reader, returned to be resumed with the end.
    package mutating func unpark() -> Reader? {
        defer { reader = nil }
        return reader
    }
}
