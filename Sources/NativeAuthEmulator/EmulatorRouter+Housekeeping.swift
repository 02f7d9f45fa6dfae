import Foundation

/// What keeps the emulator's memory bounded: the occupancy figures, the sweep of expired flows and
/// tokens, and the request log.
extension EmulatorRouter {
    /// How much the emulator holds right now: the figures its limits bound.
    public struct Occupancy: Sendable, Equatable {
        /// Native-auth flows in progress, bounded by `EmulatorConfiguration.maxFlows`.
        public var flows: Int
        /// Refresh tokens held, bounded by `EmulatorConfiguration.maxRefreshTokens`.
        public var refreshTokens: Int
        /// Entries in the request log, bounded by `EmulatorConfiguration.maxRequestLogEntries`.
        public var requestLogEntries: Int
    }

    /// What the emulator holds now, read under its lock.
    public var occupancy: Occupancy {
        world.withLock { Occupancy(flows: $0.flows.count, refreshTokens: $0.refreshTokens.count, requestLogEntries: $0.requestLog.count) }
    }

    /// Drops expired flows, tokens and refresh tokens so memory stays bounded. Amortised: the
    /// order list is compacted only when its dead head is large, tokens are filtered only when
    /// they outnumber live flows by far, refresh tokens only a tenth past their limit, so a busy
    /// emulator does no per-request O(n) work.
    func sweep(now: Date) {
        world.withLock { world in
            let horizon = TimeInterval(configuration.continuationTokenLifetime + configuration.codeLifetime)
            while world.flowHead < world.flowOrder.count {
                let id = world.flowOrder[world.flowHead]
                if let flow = world.flows[id] {
                    guard flow.createdAt.addingTimeInterval(horizon) < now || world.flows.count > configuration.maxFlows else { break }
                    world.flows.removeValue(forKey: id)
                }
                world.flowHead += 1
            }
            if world.flowHead > 1024, world.flowHead * 2 > world.flowOrder.count {
                world.flowOrder.removeFirst(world.flowHead)
                world.flowHead = 0
            }
            if world.tokens.count > 4 * max(world.flows.count, 1000) {
                world.tokens = world.tokens.filter { $0.value.expiresAt > now && world.flows[$0.value.flowId] != nil }
            }
            let limit = configuration.maxRefreshTokens
            if world.refreshTokens.count > limit + max(1, limit / 10) {
                world.refreshTokens = world.refreshTokens.filter { $0.value.expiresAt > now }
                if world.refreshTokens.count > limit {
                    let kept = world.refreshTokens.sorted { $0.value.expiresAt > $1.value.expiresAt }.prefix(limit)
                    world.refreshTokens = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
                }
            }
        }
    }

    func log(_ context: RequestContext, form: FormBody, status: Int) {
        let redacted: Set<String> = [
            "password", "new_password", "oob", "continuation_token", "refresh_token", "attributes", "code", "code_verifier",
        ]
        var fields: [String: String] = [:]
        for (name, value) in form.fields { fields[name] = redacted.contains(name) ? "<redacted>" : value }
        // The contact typed during strong-auth registration is shown only masked.
        if let contact = fields["challenge_target"] { fields["challenge_target"] = Self.maskedContact(contact) }
        let entry = LoggedRequest(
            method: context.request.method, path: context.request.path, endpoint: context.endpoint, fields: fields,
            clientRequestId: context.request.headers["client-request-id"], status: status, at: context.now)
        world.withLock { world in
            world.requestLog.append(entry)
            // Trim a tenth at a time, not one entry per request.
            let limit = configuration.maxRequestLogEntries
            if world.requestLog.count > limit + max(1, limit / 10) {
                world.requestLog.removeFirst(world.requestLog.count - limit)
            }
        }
    }
}
