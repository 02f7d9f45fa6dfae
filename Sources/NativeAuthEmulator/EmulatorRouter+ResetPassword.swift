import Foundation

/// `/resetpassword/v1.0/*` (docs/protocol.md#password-reset-endpoints, #password-reset).
extension EmulatorRouter {
    func resetPasswordStart(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let username = r.form["username"] else { throw missingParameter("username", context) }
        let types = try challengeTypes(r.form, context)
        guard types.contains("oob") else {
            return redirect("Password reset verifies the email address with a one-time passcode, which the client cannot handle.")
        }
        guard r.app.passwordResetEnabled else { return redirect("Self-service password reset is not enabled for this application.") }
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            guard let user = world.users[username.lowercased()] else {
                throw apiError(
                    "user_not_found", 50034, "The user account does not exist in the \(seed.tenant.subdomain) directory.", context: context)
            }
            guard user.password != nil else {
                throw apiError(
                    "invalid_request", 500222, "The tenant or user does not support native credential recovery.", context: context)
            }
            var flow = Flow(
                id: UUID().uuidString, kind: .resetPassword, clientId: r.app.clientId, username: user.username,
                step: .resetStarted, createdAt: context.now)
            flow.capabilities = capabilities(r.form)
            return .json(200, ["continuation_token": startFlow(flow, step: .resetStarted, world: &world, now: context.now)])
        }
    }

    func resetPasswordChallenge(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let types = try challengeTypes(r.form, context)
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.resetStarted), StepKey(.resetCodeSent)],
                clientId: r.app.clientId, world: &world, context: context)
            guard types.contains("oob") else {
                return redirect("Password reset needs a one-time passcode, which the client cannot handle.")
            }
            flow.code = sendCode(to: flow.username, purpose: .resetPassword, now: context.now, world: &world)
            flow.codeAttempts = 0
            let token = advance(&flow, to: .resetCodeSent, world: &world, now: context.now)
            return .json(200, oobChallengeBody(token: token, username: flow.username))
        }
    }

    func resetPasswordContinue(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let grantType = r.form["grant_type"] else { throw missingParameter("grant_type", context) }
        guard grantType == "oob" else {
            throw apiError("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(grantType)'.", context: context)
        }
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.resetCodeSent)],
                clientId: r.app.clientId, world: &world, context: context)
            try checkCode(r.form["oob"], flow: &flow, world: &world, context: context)
            let token = advance(&flow, to: .resetVerified, world: &world, now: context.now)
            return .json(200, ["continuation_token": token, "expires_in": min(600, configuration.continuationTokenLifetime)])
        }
    }

    func resetPasswordSubmit(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let password = r.form["new_password"] else { throw missingParameter("new_password", context) }
        let (username, current) = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> (String, PasswordHash?) in
            let flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.resetVerified)],
                clientId: r.app.clientId, world: &world, context: context)
            return (flow.username, world.users[flow.username.lowercased()]?.password)
        }
        try checkPasswordPolicy(password, username: username, current: current, context: context)
        let hash = PasswordHash(password: password, iterations: configuration.passwordHashIterations)
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.resetVerified)],
                clientId: r.app.clientId, world: &world, context: context)
            flow.newPassword = hash
            flow.pollsRemaining = configuration.resetPasswordPollsInProgress
            let token = advance(&flow, to: .resetSubmitted, world: &world, now: context.now)
            return .json(200, ["continuation_token": token, "poll_interval": configuration.resetPasswordPollInterval])
        }
    }

    func resetPasswordPoll(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            let token = r.form["continuation_token"]
            var flow = try flow(
                for: token, accepting: [StepKey(.resetSubmitted)], clientId: r.app.clientId, world: &world, context: context)
            if flow.pollsRemaining > 0 {
                flow.pollsRemaining -= 1
                world.flows[flow.id] = flow
                return .json(200, ["status": "in_progress", "continuation_token": token ?? ""])
            }
            guard var user = world.users[flow.username.lowercased()], let password = flow.newPassword else {
                throw apiError("user_not_found", 50034, "The user account does not exist in the directory.", context: context)
            }
            user.password = password
            world.users[flow.username.lowercased()] = user
            // A new password ends the user's existing sessions.
            world.refreshTokens = world.refreshTokens.filter { $0.value.username.lowercased() != flow.username.lowercased() }
            let next = advance(&flow, to: .signInAfter, world: &world, now: context.now)
            return .json(200, ["status": "succeeded", "continuation_token": next])
        }
    }
}
