import CRedisTLS
import Foundation

/// Saved sign-ins on Redis: a waiting flow state's bytes (`state.serialized()`, V1 or V2) kept
/// under a random id for the state's own lifetime, and taken back once by any process that has
/// the id. A second take of the same id is refused, so a replayed request cannot continue a
/// sign-in twice.
///
/// ```swift
/// // given: client: MSALRedisClient, saved: Data
/// let store = try MSALRedisSignInStore(client: client)
/// let id = try store.save(saved)        // hand the id to the front end
/// let again = try store.take(id)        // on any worker: the bytes, once
/// ```
///
/// The id (128 random bits, 32 hex digits) lets its holder continue the sign-in: treat it as a
/// secret. Neither the id nor the bytes reach an error message.
public final class MSALRedisSignInStore: Sendable {
    /// The longest state accepted: saved states are a few kilobytes.
    public static let maxStateBytes = 256 * 1024
    private let client: MSALRedisClient
    private let seal: ValueSeal
    private let lifetime: Int

    /// A store on `client`'s server under its key prefix. `encryptionKey`: 32 bytes for
    /// AES-256-GCM at rest, or `nil`; `lifetime`: seconds a saved state stays takeable (600, the
    /// service's longest continuation token lifetime, docs/saved-states.md).
    public init(client: MSALRedisClient, encryptionKey: Data? = nil, lifetime: TimeInterval = 600) throws(MSALRedisError) {
        guard lifetime >= 1 else { throw MSALRedisError(.invalidConfiguration, "The lifetime of a saved sign-in must be at least 1 s") }
        self.client = client
        self.seal = try ValueSeal(key: encryptionKey)
        self.lifetime = Int(lifetime.rounded(.up))
    }

    /// Stores `state` under a new id (`SET … EX lifetime NX`) and returns the id.
    public func save(_ state: Data) throws(MSALRedisError) -> String {
        guard state.count <= Self.maxStateBytes else {
            throw MSALRedisError(.tooLarge, "A saved sign-in of \(state.count) bytes is over the limit of \(Self.maxStateBytes)")
        }
        for _ in 0..<3 {
            let id = try Self.newID()
            let key = self.key(id)
            let value = try seal.seal(state, storedAs: key)
            let reply = try client.command([Data("SET".utf8), key, value, Data("EX".utf8), Data(String(lifetime).utf8), Data("NX".utf8)])
            if reply == .simple("OK") { return id }
        }
        throw MSALRedisError(.serverError, "Redis did not store the saved sign-in")
    }

    /// Takes the state saved under `id` and deletes it in the same step (`GETDEL`). Throws
    /// `.notFound` when there is none (never saved, expired, or taken before) and `.invalidValue`
    /// when what is stored there is not a state this store saved.
    public func take(_ id: String) throws(MSALRedisError) -> Data {
        guard id.count == 32, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw MSALRedisError(.notFound, "Not a saved sign-in id")
        }
        let key = self.key(id)
        let reply = try client.command([Data("GETDEL".utf8), key])
        switch reply {
        case .null: throw MSALRedisError(.notFound, "No saved sign-in under this id: never saved, expired, or already taken")
        case .bulk(let stored): return try seal.open(stored, storedAs: key)
        default: throw MSALRedisError(.invalidValue, "A saved sign-in's value is not one this library wrote")
        }
    }

    /// `<prefix>signin:{<id>}`: the id is the hash tag, so in a cluster the key's slot is the id's.
    private func key(_ id: String) -> Data { Data("\(client.configuration.keyPrefix)signin:{\(id)}".utf8) }

    private static func newID() throws(MSALRedisError) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard msal_redis_random(&bytes, 16) == 1 else { throw MSALRedisError(.invalidValue, "No random bytes for a saved sign-in id") }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
