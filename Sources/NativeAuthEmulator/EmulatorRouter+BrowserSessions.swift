import Foundation

/// The SSO sessions behind the browser cookie, and the bounds on every browser table (pages,
/// codes, sessions).
extension EmulatorRouter {
    func liveSession(_ id: String, world: EmulatorWorld, now: Date) -> BrowserSession? {
        guard let session = world.browser.sessions[id], session.expiresAt > now, world.users[session.username.lowercased()] != nil
        else { return nil }
        return session
    }

    /// Ends `username`'s SSO sessions (as revoking a user's sign-in sessions does); returns how many.
    func endBrowserSessions(of username: String, world: inout EmulatorWorld) -> Int {
        let before = world.browser.sessions.count
        world.browser.sessions = world.browser.sessions.filter { $0.value.username.lowercased() != username.lowercased() }
        return before - world.browser.sessions.count
    }

    /// Keeps the browser tables bounded: expired entries go first, then the oldest.
    func pruneBrowserState(_ world: inout EmulatorWorld, now: Date) {
        let limit = configuration.maxFlows
        let slack = limit + max(1, limit / 10)
        if world.browser.pages.count > slack {
            let lifetime = TimeInterval(configuration.authorizePageLifetime)
            world.browser.pages = world.browser.pages.filter { $0.value.createdAt.addingTimeInterval(lifetime) > now }
            if world.browser.pages.count > limit {
                let kept = world.browser.pages.sorted { $0.value.createdAt > $1.value.createdAt }.prefix(limit)
                world.browser.pages = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
        }
        if world.browser.codes.count > slack {
            // Redeemed codes are kept twice their lifetime, so that a replay is recognised (and revokes).
            let keep = TimeInterval(2 * configuration.authorizationCodeLifetime)
            world.browser.codes = world.browser.codes.filter { $0.value.issuedAt.addingTimeInterval(keep) > now }
            if world.browser.codes.count > limit {
                let kept = world.browser.codes.sorted { $0.value.issuedAt > $1.value.issuedAt }.prefix(limit)
                world.browser.codes = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
        }
        if world.browser.sessions.count > slack {
            world.browser.sessions = world.browser.sessions.filter { $0.value.expiresAt > now }
            if world.browser.sessions.count > limit {
                let kept = world.browser.sessions.sorted { $0.value.expiresAt > $1.value.expiresAt }.prefix(limit)
                world.browser.sessions = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
        }
    }
}
