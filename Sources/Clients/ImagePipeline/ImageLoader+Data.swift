import CourierCore

extension ImageLoader {
    /// `request.url`'s encoded bytes: a fresh disk entry, else the network (a conditional
    /// request when a stale entry has validators). One download per URL is in flight, shared by
    /// every pixel size.
    func data(for request: ImageRequest) async throws -> [UInt8] {
        let url = request.url
        let cached = disk?.entry(for: url)
        if let cached, cached.freshUntilMilliseconds > clock.nowMilliseconds {
            metrics.record { $0.diskHits += 1 }
            return cached.data
        }
        return try await downloads.value(for: url) { [self] in
            try await downloadGate.run(url, priority: request.priority) {
                try await download(url, revalidating: cached)
            }
        }
    }

    private func download(_ url: String, revalidating cached: DiskEntry?) async throws -> [UInt8] {
        var headers: [String: String] = [:]
        if let etag = cached?.etag { headers["If-None-Match"] = etag }
        if let modified = cached?.lastModified { headers["If-Modified-Since"] = modified }
        metrics.record { $0.downloads += 1 }
        let response: ImageDataResponse
        do {
            response = try await dataLoader.get(url, headers: headers)
        } catch {
            if Task.isCancelled || error is CancellationError {
                metrics.record { $0.downloadsCancelled += 1 }
                throw CancellationError()
            }
            throw error
        }
        metrics.record { $0.bytesDownloaded += response.body.count }
        let control = CacheControl(response.headers["cache-control"])
        switch response.status {
        case 304:
            guard var entry = cached else {
                throw ImagePipelineError(.badStatus, "GET \(url): 304 without a cached copy")
            }
            metrics.record { $0.notModified += 1 }
            entry.freshUntilMilliseconds = freshUntil(control)
            if let etag = response.headers["etag"] { entry.etag = etag }
            try? disk?.store(entry, for: url)
            return entry.data
        case 200:
            try checkContentType(response.headers["content-type"], url: url)
            guard !response.body.isEmpty else { throw ImagePipelineError(.emptyData, "GET \(url): empty body") }
            if !control.noStore, let disk {
                let entry = DiskEntry(
                    data: response.body, etag: response.headers["etag"],
                    lastModified: response.headers["last-modified"],
                    freshUntilMilliseconds: freshUntil(control))
                try? disk.store(entry, for: url)
                sweepIfDue(written: response.body.count)
            }
            return response.body
        default:
            throw ImagePipelineError(.badStatus, "GET \(url): status \(response.status)")
        }
    }

    private func freshUntil(_ control: CacheControl) -> Int64 {
        if control.noCache { return 0 }
        let seconds = control.maxAge.map(Int64.init) ?? configuration.defaultFreshness.components.seconds
        return clock.nowMilliseconds + seconds * 1000
    }

    /// An image, or bytes whose type the server did not say: the decoder sniffs them.
    private func checkContentType(_ type: String?, url: String) throws(ImagePipelineError) {
        guard let type = type?.lowercased() else { return }
        if type.hasPrefix("image/") || type.hasPrefix("application/octet-stream") || type.hasPrefix("binary/") {
            return
        }
        throw ImagePipelineError(.wrongContentType, "GET \(url): Content-Type \(type) is not an image")
    }

    /// Sweeps the disk cache in the background once enough bytes were written since the last.
    private func sweepIfDue(written: Int) {
        let due = sweepState.withLock { state -> Bool in
            state.bytesSinceSweep += written
            guard state.bytesSinceSweep >= configuration.sweepEveryBytes, !state.sweeping else { return false }
            state.bytesSinceSweep = 0
            state.sweeping = true
            return true
        }
        guard due, let disk else { return }
        Task.detached(priority: .background) { [self] in
            disk.sweep()
            sweepState.withLock { $0.sweeping = false }
        }
    }
}
