import Foundation

/// One connection to one server, ready for commands: connected, `AUTH`ed and on its database.
/// Not thread-safe: its `MultiplexedConnection` lets one thread at a time use it. After any thrown
/// error the connection is in an unknown state and its owner drops it.
final class RedisConnection {
    private let socket: RedisSocket
    private var reader: RESPReader

    /// The generation of the credentials it `AUTH`ed with (`CredentialKeeper`).
    let credentialGeneration: Int

    /// Connects, `AUTH`s with the keeper's credentials (waiting for them when none hold) and
    /// `SELECT`s within `connectTimeout`, and never past `operation`: the deadline of the operation
    /// that needs the connection. Credentials the server refuses are reported to the keeper.
    init(
        endpoint: MSALRedisConfiguration.Endpoint, configuration: MSALRedisConfiguration, tlsContext: TLSContext?,
        credentials keeper: CredentialKeeper, selectDatabase: Bool, operation: Deadline
    ) throws(MSALRedisError) {
        let deadline = Deadline(after: configuration.connectTimeout).earlier(operation)
        let credentials = try keeper.credentials(deadline: deadline)
        credentialGeneration = credentials.generation
        socket = try RedisSocket(endpoint: endpoint, tlsContext: tlsContext, deadline: deadline)
        reader = RESPReader(maxBulkBytes: configuration.maxReplyBytes, maxArrayCount: configuration.maxArrayCount)
        var setup: [RedisCommand] = []
        if let presented = credentials.credentials { setup.append(presented.command) }
        if selectDatabase && configuration.database != 0 {
            setup.append(RedisCommand("SELECT", configuration.database))
        }
        guard !setup.isEmpty else { return }
        for reply in try pipeline(setup, deadline: deadline) {
            if case .error(let text) = reply {
                let error = MSALRedisError.fromServer(text)
                if error.code == .authentication {
                    keeper.refused(credentials.generation)
                    throw error
                }
                throw MSALRedisError(
                    .invalidConfiguration, "Redis refused the connection's setup: \(error.message)", serverCode: error.serverCode)
            }
        }
    }

    /// Whether the server closed this idle connection (or sent something unasked).
    var isStale: Bool { reader.hasPendingBytes || socket.isClosedByPeer }

    /// Sends `commands` at once and reads one reply for each before `deadline`. Error replies
    /// come back as `.error`.
    func pipeline(_ commands: [RedisCommand], deadline: Deadline) throws(MSALRedisError) -> [MSALRedisReply] {
        try socket.write(commands.flatMap { RESPEncoder.encode($0) }, deadline: deadline)
        var replies: [MSALRedisReply] = []
        while replies.count < commands.count {
            if let reply = try reader.next() {
                replies.append(reply)
            } else {
                try socket.read(into: &reader, deadline: deadline)
            }
        }
        return replies
    }

    /// The next reply or message the server sends, before `deadline` (a subscribed connection's
    /// messages arrive unasked).
    func next(deadline: Deadline) throws(MSALRedisError) -> MSALRedisReply {
        while true {
            if let reply = try reader.next() { return reply }
            try socket.read(into: &reader, deadline: deadline)
        }
    }

    /// Wakes a read or write blocked on this connection in another thread, which then fails;
    /// the owner closes the connection afterwards.
    func interrupt() { socket.shutdown() }

    /// Sends `bytes` (encoded commands) before `deadline`.
    func write(_ bytes: [UInt8], deadline: Deadline) throws(MSALRedisError) {
        try socket.write(bytes, deadline: deadline)
    }

    /// The whole replies already read; when there are none, reads what arrives before `deadline`
    /// (at least one byte, else `.timeout`) and returns the whole replies then read, maybe none.
    func readReplies(before deadline: Deadline) throws(MSALRedisError) -> [MSALRedisReply] {
        var replies: [MSALRedisReply] = []
        while let reply = try reader.next() { replies.append(reply) }
        guard replies.isEmpty else { return replies }
        try socket.read(into: &reader, deadline: deadline)
        while let reply = try reader.next() { replies.append(reply) }
        return replies
    }

    func close() { socket.close() }
}
