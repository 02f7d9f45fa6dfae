import Foundation

/// One connection to one server shared by every thread that sends to it (docs/redis.md#connections):
/// many callers' commands are in flight on it at once, and each caller gets its own replies, matched
/// by order (a server answers a connection's commands in the order they came).
///
/// A caller appends its commands' bytes to `outgoing` and takes a ticket (its place in the reply
/// order), both under `condition`, so that bytes and tickets are in the same order. One caller at a
/// time, the one that finds nobody doing it, owns the socket and does its I/O for everyone: it
/// connects when needed, writes whatever is outgoing, reads in slices of `slice` (so that what others
/// append meanwhile goes out within one), and hands each reply to the oldest ticket still short of
/// replies. It gives the socket up once its own ticket is answered, and a waiting caller takes it
/// over. Only the owner touches the socket (an OpenSSL session is not for two threads at once), and
/// the lock is never held during I/O.
///
/// Any failure (the socket's, a bad reply, or a caller's deadline passing before its replies came,
/// which would put the replies out of step) fails the connection for good: every ticket not yet
/// answered gets an error, never another caller's reply; the socket is closed by its owner or, when
/// none, at once; the client drops the connection and opens a new one for the next command.
///
/// Renewed credentials (`CredentialKeeper`) go out as an `AUTH` queued ahead of the next caller's
/// commands, or on their own by `renewCredentials`, so that nothing in flight is dropped. A
/// renewal the server refuses retires the connection once nothing is in flight on it: the next
/// connection then reports the refusal.
final class MultiplexedConnection: @unchecked Sendable {
    private final class Ticket {
        let count: Int
        /// An `AUTH` with renewed credentials, which no caller waits for.
        let isRenewal: Bool
        var replies: [MSALRedisReply] = []
        var failure: MSALRedisError?
        var isDone: Bool { failure != nil || replies.count == count }
        init(count: Int, isRenewal: Bool = false) {
            self.count = count
            self.isRenewal = isRenewal
        }
    }

    /// How long the owner waits for replies before it looks for bytes to write again.
    static let slice: TimeInterval = 0.001

    private let condition = NSCondition()
    private let open: (Deadline) throws(MSALRedisError) -> RedisConnection
    private let credentials: CredentialKeeper
    /// The generation of the credentials the open connection presented last, once it is open.
    private var generation: Int?
    /// The server refused renewed credentials: the connection is not given out again.
    private var isRetired = false
    /// The connection, once made; touched only by the socket's owner, or under `condition` when it has none.
    private var connection: RedisConnection?
    /// Bytes of commands not written yet, and their tickets, in order.
    private var outgoing: [UInt8] = []
    private var queued: [Ticket] = []
    /// Tickets whose commands are written and whose replies have not all come, in order.
    private var inFlight: [Ticket] = []
    private var isOwned = false
    private var failure: MSALRedisError?

    /// A connection that `open` makes (connected, `AUTH`ed, on its database) when the first
    /// command needs it, within that command's deadline; renewed when `credentials` are.
    init(credentials: CredentialKeeper, open: @escaping (Deadline) throws(MSALRedisError) -> RedisConnection) {
        self.credentials = credentials
        self.open = open
    }

    deinit { connection?.close() }

    /// Sends `commands` (pipelined) and returns one reply for each, in order, before `deadline`.
    /// Error replies come back as `.error`. Any thrown error means the connection has failed.
    func send(_ commands: [RedisCommand], deadline: Deadline) throws(MSALRedisError) -> [MSALRedisReply] {
        let bytes = commands.flatMap { RESPEncoder.encode($0) }
        let ticket = Ticket(count: commands.count)
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        queueRenewalIfDue()
        outgoing += bytes
        queued.append(ticket)
        while !ticket.isDone {
            if !isOwned {
                serve(ticket, deadline: deadline)
            } else if !condition.wait(until: Date(timeIntervalSinceNow: deadline.remainingSeconds)), deadline.hasPassed, !ticket.isDone {
                fail(MSALRedisError(.timeout, "Redis did not answer within the timeout"), by: ticket)
            }
        }
        if let failure = ticket.failure { throw failure }
        return ticket.replies
    }

    /// Sends `AUTH` with renewed credentials on the open connection, behind what is queued, and
    /// waits for its answer until `deadline`; nothing when the connection is not open or has them.
    func renewCredentials(deadline: Deadline) {
        condition.lock()
        defer { condition.unlock() }
        guard failure == nil, let ticket = queueRenewalIfDue() else { return }
        while !ticket.isDone && failure == nil {
            if !isOwned {
                serve(ticket, deadline: deadline)
            } else if !condition.wait(until: Date(timeIntervalSinceNow: deadline.remainingSeconds)), deadline.hasPassed {
                return
            }
        }
    }

    /// Queues an `AUTH` with the keeper's credentials when they are newer than the open
    /// connection's, and returns its ticket. Under `condition`.
    @discardableResult
    private func queueRenewalIfDue() -> Ticket? {
        guard let generation, let renewed = credentials.renewal(after: generation), let presented = renewed.credentials else { return nil }
        self.generation = renewed.generation
        let ticket = Ticket(count: 1, isRenewal: true)
        outgoing += RESPEncoder.encode(presented.command)
        queued.append(ticket)
        return ticket
    }

    /// Whether the client must not give this connection out again: it failed, or the server closed
    /// it while idle (or sent something unasked), or refused renewed credentials, which can only be
    /// acted on when nothing is in flight.
    var isUnusable: Bool {
        condition.lock()
        defer { condition.unlock() }
        if failure != nil { return true }
        guard !isOwned, inFlight.isEmpty, queued.isEmpty, let connection else { return false }
        return isRetired || connection.isStale
    }

    /// Fails the connection: callers waiting on it get `.connectionFailed` with `reason`.
    func close(_ reason: String) {
        condition.lock()
        defer { condition.unlock() }
        fail(MSALRedisError(.connectionFailed, reason), by: nil)
    }

    /// Does the socket's I/O until `own` is answered or the connection fails. Called and returns
    /// with `condition` locked; unlocks it around every I/O.
    private func serve(_ own: Ticket, deadline: Deadline) {
        isOwned = true
        defer {
            isOwned = false
            if failure != nil {
                connection?.close()
                connection = nil
            }
            condition.broadcast()
        }
        while !own.isDone {
            guard failure == nil else { return }
            guard !deadline.hasPassed else { return fail(MSALRedisError(.timeout, "Redis did not answer within the timeout"), by: own) }
            let bytes = outgoing
            outgoing = []
            inFlight += queued
            queued = []
            condition.unlock()
            var replies: [MSALRedisReply] = []
            var thrown: MSALRedisError?
            do { replies = try exchange(bytes, deadline: deadline) } catch { thrown = error }
            condition.lock()
            guard failure == nil else { return }
            if let thrown { return fail(thrown, by: own) }
            if generation == nil { generation = connection?.credentialGeneration }
            deliver(replies)
        }
    }

    /// Connects when needed, writes `bytes`, and reads the replies that come within a slice. Only
    /// the owner calls it, without the lock.
    private func exchange(_ bytes: [UInt8], deadline: Deadline) throws(MSALRedisError) -> [MSALRedisReply] {
        let connection: RedisConnection
        if let open = self.connection {
            connection = open
        } else {
            connection = try self.open(deadline)
            self.connection = connection
        }
        if !bytes.isEmpty { try connection.write(bytes, deadline: deadline) }
        do {
            return try connection.readReplies(before: Deadline(after: Self.slice).earlier(deadline))
        } catch {
            // The end of a slice, not of the operation: nothing was read, the stream is intact.
            if error.code == .timeout && !deadline.hasPassed { return [] }
            throw error
        }
    }

    /// Hands `replies` to the tickets in flight, oldest first; a reply no ticket asked for fails
    /// the connection. Under `condition`.
    private func deliver(_ replies: [MSALRedisReply]) {
        guard !replies.isEmpty else { return }
        var answered = 0
        for reply in replies {
            guard answered < inFlight.count else {
                return fail(MSALRedisError(.protocolViolation, "The Redis server sent a reply no command asked for"), by: nil)
            }
            inFlight[answered].replies.append(reply)
            if inFlight[answered].isRenewal, case .error = reply { isRetired = true }
            if inFlight[answered].isDone { answered += 1 }
        }
        inFlight.removeFirst(answered)
        if answered > 0 { condition.broadcast() }
    }

    /// Fails the connection with `error` for `caller` (whose deadline passed, or whose I/O failed)
    /// and every other ticket not yet answered; a timeout is another caller's, so they get
    /// `.connectionFailed`. Closes the socket unless an owner is using it (it closes it on its way
    /// out). Under `condition`.
    private func fail(_ error: MSALRedisError, by caller: Ticket?) {
        caller?.failure = error
        guard failure == nil else { return }
        let others =
            error.code == .timeout
            ? MSALRedisError(.connectionFailed, "A command on the same Redis connection timed out; the connection was closed") : error
        failure = others
        for ticket in inFlight + queued where ticket.failure == nil { ticket.failure = others }
        inFlight = []
        queued = []
        outgoing = []
        if !isOwned {
            connection?.close()
            connection = nil
        }
        condition.broadcast()
    }
}
