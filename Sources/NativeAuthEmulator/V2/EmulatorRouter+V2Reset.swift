import Foundation

/// Native auth V2 password reset and inline recovery (docs/protocol.md#native-auth-v2-experimental):
/// `resetpassword/start` or a sign-in password method's `recover` list the user's recovery methods (and the
/// password method); a recovery code (the sign-in routes: `challenge`, risk hop, `verify`) leads to `update`
/// (`PUT auth/methods/password/{id}`), then `poll` answers (`…/{id}/pollUpdate`) until the new password is
/// applied; then MFA as after a first factor, or `continue`.
extension EmulatorRouter {
    /// `POST resetpassword/start {username, continuationToken}`.
    func v2ResetPasswordStart(_ r: V2Request) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            let (entry, user) = try v2StartUser(r, world: &world)
            var flow = entry
            guard user.password != nil else {
                throw halError(
                    "invalidRequest", "userDoesNotHavePassword", 500222, "The user does not have a password to reset.", context: context)
            }
            guard v2App(flow)?.passwordResetEnabled == true, !v2NeedsBrowser(user, r) else {
                v2End(flow, world: &world)
                throw v2WebFallback(context)
            }
            flow.journey = .resetPassword
            flow.username = user.username
            flow.passwordMethod = V2Method(id: UUID().uuidString.lowercased(), type: "password", target: nil, role: .recovery)
            return v2RecoveryMethods(&flow, user: user, world: &world, now: context.now)
        }
        return halResponse(answer, r)
    }

    /// `POST auth/methods/password/{id}/recover {continuationToken}`: inline recovery from a sign-in's
    /// method list or password step; the recovery steps then run in the same flow, whose `continue` signs in.
    func v2Recover(_ r: V2Request, id: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, step) = try v2Flow(r.continuationToken, accepting: [.firstFactor, .password], world: &world, context: context)
            let candidates = step == .password ? [flow.current].compactMap { $0 } : flow.methods
            guard
                let method = candidates.first(where: {
                    $0.id.lowercased() == id.lowercased() && $0.type == "password" && $0.role == .firstFactor
                })
            else {
                throw halError(
                    "invalidRequest", nil, 90100, "id parameter is empty or not valid: no such method in this step.", context: context)
            }
            guard let user = world.users[flow.username?.lowercased() ?? ""] else { throw v2UserGone(context) }
            flow.inlineRecovery = true
            flow.passwordMethod = V2Method(id: method.id, type: "password", target: nil, role: .recovery)
            return v2RecoveryMethods(&flow, user: user, world: &world, now: context.now)
        }
        return halResponse(answer, r)
    }

    /// The recovery methods (`challenge`, `singleFactor`, seed order, random ids per flow), then the
    /// password method, which SDKs drop (**Choice**: its `challenge` is refused).
    private func v2RecoveryMethods(_ flow: inout V2Flow, user: UserRecord, world: inout EmulatorWorld, now: Date) -> HALAnswer {
        flow.methods =
            user.recoveryMethods.map { method in
                V2Method(id: UUID().uuidString.lowercased(), type: method.channel.rawValue, target: method.target, role: .recovery)
            } + [flow.passwordMethod].compactMap { $0 }
        let token = v2Advance(&flow, to: .recovery, world: &world, now: now)
        return HALAnswer(
            action: "challenge", scenario: flow.scenario, continuationToken: token, authenticationFactor: "singleFactor",
            methods: flow.methods)
    }

    /// A recovery code passed: `update` with the password method's route.
    func v2RecoveryVerified(_ flow: inout V2Flow, world: inout EmulatorWorld, now: Date) -> HALAnswer {
        let method = flow.passwordMethod ?? V2Method(id: UUID().uuidString.lowercased(), type: "password", target: nil, role: .recovery)
        flow.passwordMethod = method
        flow.current = method
        let token = v2Advance(&flow, to: .newPassword, world: &world, now: now)
        return HALAnswer(
            action: "update", scenario: flow.scenario, continuationToken: token, links: [("update", .api(Self.v2MethodRoute(method)))],
            method: method)
    }

    /// `PUT auth/methods/password/{id} {continuationToken, newPassword}`: V1's password policy (and not the
    /// current password); a refusal is `invalidRequest`/`passwordTooWeak` (`passwordBanned`,
    /// `passwordRecentlyUsed`) AADSTS120002 and leaves the token usable. Accepted: `poll`.
    func v2UpdatePassword(_ r: V2Request, id: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let (username, current, newPassword) = try world.withLock {
            (world: inout EmulatorWorld) throws(Failure) -> (String, PasswordHash?, String) in
            let (flow, _) = try v2Verifiable(r, type: "password", id: id, steps: [.newPassword], world: &world)
            guard let newPassword = r.string("newPassword"), !newPassword.isEmpty else {
                throw halError("invalidRequest", nil, 90100, "newPassword parameter is empty or not valid.", context: context)
            }
            let username = flow.username ?? ""
            return (username, world.users[username.lowercased()]?.password, newPassword)
        }
        // Checked and hashed outside the lock (as V1's reset), stored under it again.
        if let problem = Self.passwordPolicyProblem(newPassword, username: username, current: current) {
            let inner =
                switch problem.suberror {
                case "password_banned": "passwordBanned"
                case "password_recently_used": "passwordRecentlyUsed"
                default: "passwordTooWeak"
                }
            throw halError("invalidRequest", inner, 120002, problem.message, context: context)
        }
        let hash = PasswordHash(password: newPassword, iterations: configuration.passwordHashIterations)
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, _) = try v2Verifiable(r, type: "password", id: id, steps: [.newPassword], world: &world)
            flow.newPassword = hash
            flow.pollsRemaining = r.settings.pollInProgress
            return v2PollAnswer(&flow, world: &world, r)
        }
        return halResponse(answer, r)
    }

    /// `POST auth/methods/password/{id}/pollUpdate {continuationToken}`: `poll` while the hook's
    /// `poll_in_progress` answers remain; then the new password replaces the old one, the user's refresh
    /// tokens are revoked (V1's reset) and MFA is asked as after a first factor, or the flow answers `continue`.
    func v2PollUpdate(_ r: V2Request, id: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, _) = try v2Verifiable(r, type: "password", id: id, steps: [.poll], world: &world)
            if flow.pollsRemaining > 0 {
                flow.pollsRemaining -= 1
                return v2PollAnswer(&flow, world: &world, r)
            }
            guard let username = flow.username, var user = world.users[username.lowercased()], let hash = flow.newPassword else {
                throw v2UserGone(context)
            }
            user.password = hash
            world.users[username.lowercased()] = user
            world.refreshTokens = world.refreshTokens.filter { $0.value.username.lowercased() != username.lowercased() }
            flow.newPassword = nil
            return try v2AfterFirstFactor(&flow, world: &world, context: context)
        }
        return halResponse(answer, r)
    }

    /// `poll` with the `pollUpdate` link (and `pollInterval` when the hook sets `poll_interval_ms`).
    private func v2PollAnswer(_ flow: inout V2Flow, world: inout EmulatorWorld, _ r: V2Request) -> HALAnswer {
        let route = Self.v2MethodRoute(flow.current ?? V2Method(id: "", type: "password", target: nil, role: .recovery))
        let token = v2Advance(&flow, to: .poll, world: &world, now: r.context.now)
        return HALAnswer(
            action: "poll", scenario: flow.scenario, continuationToken: token, links: [("poll", .api(route + "/pollUpdate"))],
            pollInterval: r.settings.pollIntervalMs)
    }
}
