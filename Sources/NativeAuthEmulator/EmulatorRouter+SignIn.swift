import Foundation

/// `/oauth2/v2.0/initiate` and `/oauth2/v2.0/challenge` (docs/protocol.md#sign-in-endpoints).
extension EmulatorRouter {
    func signInInitiate(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let username = r.form["username"] else { throw missingParameter("username", context) }
        _ = try challengeTypes(r.form, context)
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            guard world.users[username.lowercased()] != nil else {
                throw apiError(
                    "user_not_found", 50034, "The user account does not exist in the \(seed.tenant.subdomain) directory.", context: context)
            }
            var flow = Flow(
                id: UUID().uuidString, kind: .signIn, clientId: r.app.clientId, username: username, step: .signInInitiated,
                createdAt: context.now)
            flow.capabilities = capabilities(r.form)
            let token = startFlow(flow, step: .signInInitiated, world: &world, now: context.now)
            return .json(200, ["continuation_token": token])
        }
    }

    func signInChallenge(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        if let id = r.form["id"] { return try mfaChallenge(r, id: id) }
        let context = r.context
        let types = try challengeTypes(r.form, context)
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.signInInitiated), StepKey(.signInOOBChallenge)],
                clientId: r.app.clientId, world: &world, context: context)
            guard let user = world.users[flow.username.lowercased()] else {
                throw apiError("user_not_found", 50034, "The user account does not exist in the directory.", context: context)
            }
            if user.browserOnly { // seed field `browser_only` (docs/emulator.md#native-auth-v2-experimental)
                advance(&flow, to: .finished, world: &world, now: context.now)
                return redirect("The user signs in with a web browser.")
            }
            if user.password != nil, flow.step == .signInInitiated {
                guard types.contains("password") else {
                    return redirect("The user signs in with a password, which the client cannot handle.")
                }
                let token = advance(&flow, to: .signInPasswordChallenge, world: &world, now: context.now)
                return .json(200, ["continuation_token": token, "challenge_type": "password"])
            }
            guard user.password == nil else {
                throw wrongEndpointToken(context)
            }
            // The app's user flow is email with password: a client that cannot take a password cannot
            // do its sign-in, even for a user who signs in with a code (the live service redirects).
            guard r.app.signUpMethod != .password || types.contains("password") else {
                return redirect("The app's user flow signs in with email and password, which the client cannot handle.")
            }
            guard types.contains("oob") else {
                return redirect("The user signs in with an email one-time passcode, which the client cannot handle.")
            }
            flow.code = sendCode(to: user.username, purpose: .signIn, now: context.now, world: &world)
            flow.codeAttempts = 0
            let token = advance(&flow, to: .signInOOBChallenge, world: &world, now: context.now)
            return .json(200, oobChallengeBody(token: token, username: user.username))
        }
    }

    func oobChallengeBody(token: String, username: String) -> [String: Any] {
        [
            "continuation_token": token, "challenge_type": "oob", "binding_method": "prompt", "challenge_channel": "email",
            "challenge_target_label": Self.maskedEmail(username), "code_length": configuration.codeLength,
            "interval": configuration.resendInterval,
        ]
    }

    /// `ada@example.com` → `a*a@e*****e.com`: enough to recognise, not enough to harvest.
    static func maskedEmail(_ address: String) -> String {
        let parts = address.split(separator: "@", maxSplits: 1)
        guard parts.count == 2 else { return "***" }
        func mask(_ text: Substring) -> String {
            guard text.count > 2 else { return String(repeating: "*", count: text.count) }
            return String(text.first!) + String(repeating: "*", count: text.count - 2) + String(text.last!)
        }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        let maskedDomain = domain.count > 1 ? mask(domain[0]) + "." + domain.dropFirst().joined(separator: ".") : mask(parts[1])
        return mask(parts[0]) + "@" + maskedDomain
    }

    /// Checks a submitted code against the flow's, counting attempts (docs/protocol.md#one-time-codes). On the last
    /// allowed failure the flow ends, so its token stops working.
    func checkCode(_ submitted: String?, flow: inout Flow, world: inout EmulatorWorld, context: RequestContext) throws(Failure) {
        guard let submitted else { throw missingParameter("oob", context) }
        guard let code = flow.code else { throw invalidContinuationToken(context, grant: true) }
        let expired = code.expiresAt <= context.now
        if expired || !Secrets.constantTimeEqual(submitted, code.code) {
            flow.codeAttempts += 1
            if flow.codeAttempts >= configuration.maxCodeAttempts {
                flow.step = .finished
                flow.generation += 1
            }
            world.flows[flow.id] = flow
            let message = expired ? "The verification code has expired." : "Error in verifying the one-time passcode."
            throw apiError("invalid_grant", 50181, message, suberror: "invalid_oob_value", context: context)
        }
        flow.code = nil
    }
}
