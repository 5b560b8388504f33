import CourierCore

/// A percentage rollout: a stable bucket per id, computed the way Unleash or GrowthBook does.
public struct Rollout: Sendable, Equatable {
    /// Which service's bucketing to reproduce.
    public enum Algorithm: Sendable, Equatable {
        /// Unleash's gradual rollout: `murmur3("{groupId}:{id}") % 100 + 1 <= percentage`.
        case unleash
        /// GrowthBook's coverage: `percentage > 0 && hash(seed, id, hashVersion) <= percentage / 100`,
        /// as GrowthBook's JavaScript SDK includes an id whose hash equals the coverage.
        case growthBook(hashVersion: Int)
    }

    /// Percent of ids included, 0–100.
    public let percentage: Double
    /// The bucket function.
    public let algorithm: Algorithm
    /// Unleash's `groupId` or GrowthBook's `seed`; the flag's key when not given.
    public let seed: String
    /// The attribute whose value is hashed; `targetingKey` when not given.
    public let stickiness: String

    /// Creates a rollout.
    public init(percentage: Double, algorithm: Algorithm, seed: String, stickiness: String = "targetingKey") {
        self.percentage = percentage
        self.algorithm = algorithm
        self.seed = seed
        self.stickiness = stickiness
    }

    /// Whether the id is inside the rollout.
    @inline(__always)
    public func includes(_ id: String) -> Bool {
        switch algorithm {
        case .unleash:
            return percentage > 0 && Double(Bucketing.unleashNormalizedValue(id: id, groupId: seed)) <= percentage
        case .growthBook(let version):
            // GrowthBook's SDKs (`isIncludedInRollout`): no one at coverage 0, else `n <= coverage`.
            guard percentage > 0, let n = Bucketing.growthBookHash(seed: seed, value: id, version: version) else {
                return false
            }
            return n <= percentage / 100
        }
    }

    /// The JSON form.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "percentage": .double(percentage), "seed": .string(seed), "stickiness": .string(stickiness),
        ]
        switch algorithm {
        case .unleash:
            object["algorithm"] = "unleash"
        case .growthBook(let version):
            object["algorithm"] = "growthbook"
            object["hashVersion"] = .int(Int64(version))
        }
        return .object(object)
    }
}
