import Synchronization

/// One place on screen that shows one image at a time, such as a reused cell's image view. It
/// guarantees that a late completion for an earlier request is never delivered: each `load`
/// supersedes (and cancels) the previous one.
///
/// ```swift
/// // In the cell, on the main actor:
/// override func prepareForReuse() { slot.clear() }
/// func show(_ request: ImageRequest) async {
///     if case .current(let image) = await slot.load(request) { imageView.image = makeUIImage(image) }
/// }
/// ```
public final class ImageSlot: Sendable {
    /// What a `load` ended with.
    public enum Outcome: Sendable {
        /// The image, and this request is still the slot's current one: show it.
        case current(DecodedImage)
        /// A later `load` or `clear` replaced this request: show nothing.
        case superseded
        /// The current request failed.
        case failed(ImagePipelineError)
    }

    private let loader: ImageLoader
    private let state = Mutex((generation: UInt64(0), task: Task<DecodedImage, any Error>?.none))

    /// Creates a slot that loads through `loader`.
    public init(loader: ImageLoader) { self.loader = loader }

    /// Loads `request` as this slot's image, cancelling the previous request.
    public func load(_ request: ImageRequest) async -> Outcome {
        let task = Task { try await loader.image(for: request) }
        let (generation, previous) = state.withLock { state in
            state.generation += 1
            let previous = state.task
            state.task = task
            return (state.generation, previous)
        }
        previous?.cancel()
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        guard isCurrent(generation) else { return .superseded }
        switch result {
        case .success(let image): return .current(image)
        case .failure(let error as ImagePipelineError): return .failed(error)
        case .failure: return .superseded
        }
    }

    /// Cancels the current request (a cell being reused); its completion is not delivered.
    public func clear() {
        let task = state.withLock { state in
            state.generation += 1
            let task = state.task
            state.task = nil
            return task
        }
        task?.cancel()
    }

    private func isCurrent(_ generation: UInt64) -> Bool { state.withLock { $0.generation == generation } }
}
