import Foundation

/// Saved sign-ins on Redis: a waiting flow state's bytes (`state.serialized()`, V1 or V2) kept
/// under a random id for the state's own lifetime, and taken back once by any process that has
/// the id. A second take of the same id is refused, so a replayed request cannot continue a
/// sign-in twice, and a taker that cannot open the state (another key) leaves it for one that can.
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

    /// Stores `state` under a new id (`SET … EX lifetime NX`) and returns the id, within the
    /// client's command timeout.
    public func save(_ state: Data) throws(MSALRedisError) -> String {
        guard state.count <= Self.maxStateBytes else {
            throw MSALRedisError(.tooLarge, "A saved sign-in of \(state.count) bytes is over the limit of \(Self.maxStateBytes)")
        }
        return try client.operation { () throws(MSALRedisError) -> String in try saveOnce(state) }
    }

    private func saveOnce(_ state: Data) throws(MSALRedisError) -> String {
        for _ in 0..<3 {
            let id = try Self.newID()
            let key = self.key(id)
            let value = try seal.seal(state, storedAs: key)
            let reply = try client.command("SET", key: key, value, "EX", lifetime, "NX")
            if reply == .simple("OK") { return id }
        }
        throw MSALRedisError(.serverError, "Redis did not store the saved sign-in")
    }

    /// Takes the state saved under `id`, once: reads it (`GET`), opens it here, and only then
    /// deletes it if it is still the value read (one script, `takeIfUnchanged` below), so
    /// that of several takers exactly one gets it. Throws `.notFound` when there is none (never
    /// saved, expired, or taken before, also by a taker that read it at the same time) and
    /// `.invalidValue` when what is stored there cannot be opened here (another key, a value this
    /// store did not save, one changed in Redis): that value is left in place, so a worker with the
    /// right key still takes it until its lifetime ends. Both commands together are one operation,
    /// within the client's command timeout.
    public func take(_ id: String) throws(MSALRedisError) -> Data {
        guard id.count == 32, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw MSALRedisError(.notFound, "Not a saved sign-in id")
        }
        return try client.operation { () throws(MSALRedisError) -> Data in try takeOnce(key(id)) }
    }

    private func takeOnce(_ key: Data) throws(MSALRedisError) -> Data {
        let stored: Data
        switch try client.command("GET", key: key) {
        case .null: throw Self.notFound
        case .bulk(let value): stored = value
        default: throw MSALRedisError(.invalidValue, "A saved sign-in's value is not one this library wrote")
        }
        let state = try seal.open(stored, storedAs: key)
        let deleted = try client.run(RedisCommand.eval(Self.takeIfUnchanged, keys: [key], arguments: [stored]))
        guard deleted == .integer(1) else { throw Self.notFound }
        return state
    }

    private static let notFound = MSALRedisError(.notFound, "No saved sign-in under this id: never saved, expired, or already taken")

    /// KEYS: the saved sign-in. ARGV: the value its taker read and opened. Deletes the key only
    /// while it still holds that value; 1 when deleted (this taker has it), 0 when another took it.
    static let takeIfUnchanged = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// `<prefix>signin:{<id>}`: the id is the hash tag, so in a cluster the key's slot is the id's.
    private func key(_ id: String) -> Data { Data("\(client.configuration.keyPrefix)signin:{\(id)}".utf8) }

    private static func newID() throws(MSALRedisError) -> String { try RandomBytes.hex(16, for: "a saved sign-in id") }
}
