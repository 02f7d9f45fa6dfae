import Foundation

/// Native auth V2 sign-in (docs/protocol.md#native-auth-v2-experimental): `signin/start`, a method's
/// `challenge` (also every `resend`) and `verify`, the SMS risk hop `risk/phone/verify`, and just-in-time
/// registration (`auth/methods/{type}/register`, `…/{id}/activate`). Once the first factor passes, MFA is
/// asked as V1 decides it (`needsMFA`, or `acrs` in the entry's `claims`), with no capability check.
extension EmulatorRouter {
    /// `POST signin/start {username, continuationToken}`: the user's first factors, in seed order.
    func v2SignInStart(_ r: V2Request) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            let (entry, user) = try v2StartUser(r, world: &world)
            var flow = entry
            if v2NeedsBrowser(user, r) {
                v2End(flow, world: &world)
                throw v2WebFallback(context)
            }
            return v2FirstFactors(&flow, user: user, world: &world, now: context.now)
        }
        return halResponse(answer, r)
    }

    /// The entry token and the existing user of a `signin/start` or `resetpassword/start`: a username that is
    /// missing or not an email address is `invalidRequest` 90100, an unknown one `userNotFound` 50034.
    func v2StartUser(_ r: V2Request, world: inout EmulatorWorld) throws(Failure) -> (V2Flow, UserRecord) {
        let context = r.context
        let (flow, _) = try v2Flow(r.continuationToken, accepting: [.entry], world: &world, context: context)
        guard let username = r.string("username"), Self.isEmailAddress(username) else {
            throw halError("invalidRequest", nil, 90100, "username parameter is empty or not valid.", context: context)
        }
        guard let user = world.users[username.lowercased()] else {
            throw halError(
                "invalidRequest", "userNotFound", 50034, "The user account does not exist in the \(seed.tenant.subdomain) directory.",
                context: context)
        }
        return (flow, user)
    }

    /// The user's first factors (`challenge`, `singleFactor`), in seed order: sign-in, and sign-up of an
    /// existing account (docs/protocol.md#native-auth-v2-experimental).
    func v2FirstFactors(_ flow: inout V2Flow, user: UserRecord, world: inout EmulatorWorld, now: Date) -> HALAnswer {
        flow.username = user.username
        flow.methods = user.firstFactors.map { factor in
            V2Method(
                id: UUID().uuidString.lowercased(), type: factor.rawValue, target: factor == .email ? user.username : nil,
                role: .firstFactor)
        }
        let token = v2Advance(&flow, to: .firstFactor, world: &world, now: now)
        return HALAnswer(
            action: "challenge", scenario: flow.scenario, continuationToken: token, authenticationFactor: "singleFactor",
            methods: flow.methods)
    }

    /// Every V2 start of a `browser_only` user, or of a username in the hook's `web_fallback_for`, goes to the browser.
    func v2NeedsBrowser(_ user: UserRecord, _ r: V2Request) -> Bool {
        user.browserOnly || r.settings.webFallbackFor.contains { $0.lowercased() == user.username.lowercased() }
    }

    /// The browser fallback body of docs/protocol.md#native-auth-v2-experimental (HAL routes).
    func v2WebFallback(_ context: RequestContext) -> Failure {
        halError(
            "invalid_grant", "web_redirect_required", nil, "Sign-in must continue in a web browser.", state: "webFallbackRequired",
            context: context)
    }

    /// `POST auth/methods/{type}/{id}/challenge`: picks a listed method, or resends the code of the one
    /// being verified or activated. A password method asks for the password; an SMS first goes through
    /// the risk hop when the app (or the hook) says `always`.
    func v2Challenge(_ r: V2Request, type: String, id: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, step) = try v2Flow(
                r.continuationToken, accepting: [.firstFactor, .mfa, .recovery, .code, .activate], world: &world, context: context)
            let candidates = step == .activate ? [flow.current].compactMap { $0 } : flow.methods
            guard let method = candidates.first(where: { $0.id.lowercased() == id.lowercased() && $0.type == type }) else {
                throw halError(
                    "invalidRequest", nil, 90100, "id parameter is empty or not valid: no such method in this step.", context: context)
            }
            if method.type == "password" {
                // Listed among recovery methods only to name the `update` route (SDKs drop it). **Choice**: refused.
                guard method.role == .firstFactor else {
                    throw halError(
                        "invalidRequest", nil, 90100, "The password method cannot prove the account in a password reset.", context: context)
                }
                flow.current = method
                let token = v2Advance(&flow, to: .password, world: &world, now: context.now)
                let route = Self.v2MethodRoute(method)
                return HALAnswer(
                    action: "verify", scenario: flow.scenario, continuationToken: token,
                    links: [("verify", .api(route + "/verify")), ("recover", .api(route + "/recover"))], method: method)
            }
            return try v2SendOrRiskHop(&flow, method: method, world: &world, r)
        }
        return halResponse(answer, r)
    }

    /// `POST risk/phone/verify {continuationToken}`: the phone passes (the code is sent) unless the service
    /// refuses it (`accessDenied`/`providerBlockedByRep` 550024; the selection's token stays usable).
    func v2RiskVerify(_ r: V2Request) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, _) = try v2Flow(r.continuationToken, accepting: [.risk], world: &world, context: context)
            guard let method = flow.riskPending else { throw v2InvalidToken(context) }
            try v2CheckNotBlocked(method, flow: flow, context: context)
            return v2SendCode(&flow, method: method, world: &world, now: context.now)
        }
        return halResponse(answer, r)
    }

    /// `POST auth/methods/{type}/{id}/verify` with `password` or `otp`.
    func v2Verify(_ r: V2Request, type: String, id: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        enum Outcome {
            case answered(HALAnswer)
            case checkPassword(PasswordHash?)
        }
        let outcome = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> Outcome in
            var (flow, step) = try v2Verifiable(r, type: type, id: id, steps: [.password, .code], world: &world)
            guard step == .code else {
                guard r.string("password")?.isEmpty == false else {
                    throw halError("invalidRequest", nil, 90100, "password parameter is empty or not valid.", context: context)
                }
                return .checkPassword(world.users[flow.username?.lowercased() ?? ""]?.password)
            }
            try v2CheckCode(r.string("otp") ?? r.string("code"), flow: &flow, world: &world, context: context)
            switch flow.current?.role {
            case .firstFactor: return .answered(try v2AfterFirstFactor(&flow, world: &world, context: context))
            case .signUp: return .answered(try v2SignUpVerified(&flow, world: &world, context: context))
            case .recovery: return .answered(v2RecoveryVerified(&flow, world: &world, now: context.now))
            default:
                flow.secondFactorPassed = true
                return .answered(v2Continue(&flow, world: &world, now: context.now))
            }
        }
        switch outcome {
        case .answered(let answer):
            return halResponse(answer, r)
        case .checkPassword(let stored):
            // Hashed outside the lock (as V1's password grant), decided under it again.
            let matches = stored?.matches(r.string("password") ?? "") ?? false
            let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
                var (flow, _) = try v2Verifiable(r, type: type, id: id, steps: [.password], world: &world)
                guard matches else {
                    flow.passwordAttempts += 1
                    if flow.passwordAttempts >= configuration.maxPasswordAttempts {
                        v2End(flow, world: &world)
                        throw v2TooManyAttempts(context)
                    }
                    world.v2.flows[flow.id] = flow
                    throw halError(
                        "invalidGrant", "invalidUserNameOrPassword", 50126,
                        "Error validating credentials due to invalid username or password.", context: context)
                }
                return try v2AfterFirstFactor(&flow, world: &world, context: context)
            }
            return halResponse(answer, r)
        }
    }

    /// `POST auth/methods/{type}/register {continuationToken, target}` (JIT): the account's own sign-in
    /// address is pre-verified (`continue` at once); another contact gets a code (an SMS after the risk hop).
    func v2Register(_ r: V2Request, type: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, _) = try v2Flow(r.continuationToken, accepting: [.registration, .activate], world: &world, context: context)
            guard let channel = Seed.StrongAuthMethod.Channel(rawValue: type) else {
                throw halError("invalidRequest", nil, 90100, "The method type '\(type)' cannot be registered.", context: context)
            }
            let typed = r.string("target") ?? ""
            let contact = channel == .email ? (Self.isEmailAddress(typed) ? typed : nil) : Self.normalizedPhoneNumber(typed)
            guard let contact else {
                throw halError(
                    "invalidRequest", "invalidVerificationContact", 901001, "The verification contact is not valid for \(type).",
                    context: context)
            }
            guard let username = flow.username, let user = world.users[username.lowercased()] else { throw v2UserGone(context) }
            let method = V2Method(id: UUID().uuidString.lowercased(), type: type, target: contact, role: .registration)
            if channel == .email, contact.lowercased() == user.username.lowercased(), let app = v2App(flow),
                !Self.isBlocked(contact, channel: .email, app: app)
            {
                v2AddStrongAuthMethod(method, username: username, world: &world)
                flow.secondFactorPassed = true
                return v2Continue(&flow, world: &world, now: context.now)
            }
            return try v2SendOrRiskHop(&flow, method: method, world: &world, r)
        }
        return halResponse(answer, r)
    }

    /// `POST auth/methods/{type}/{id}/activate {continuationToken, code}`: proves the contact, registers
    /// the method and finishes the sign-in.
    func v2Activate(_ r: V2Request, type: String, id: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, _) = try v2Verifiable(r, type: type, id: id, steps: [.activate], world: &world)
            try v2CheckCode(r.string("code") ?? r.string("otp"), flow: &flow, world: &world, context: context)
            guard let method = flow.current, let username = flow.username else { throw v2UserGone(context) }
            v2AddStrongAuthMethod(method, username: username, world: &world)
            flow.secondFactorPassed = true
            return v2Continue(&flow, world: &world, now: context.now)
        }
        return halResponse(answer, r)
    }

    // MARK: Steps

    /// The flow of a token for `steps` whose method in progress is `{type}/{id}` (a token is bound to its method).
    func v2Verifiable(_ r: V2Request, type: String, id: String, steps: Set<V2Step>, world: inout EmulatorWorld) throws(Failure)
        -> (V2Flow, V2Step)
    {
        let (flow, step) = try v2Flow(r.continuationToken, accepting: steps, world: &world, context: r.context)
        guard let current = flow.current, current.id.lowercased() == id.lowercased(), current.type == type else {
            throw v2InvalidToken(r.context)
        }
        return (flow, step)
    }

    /// After the first factor (or a new password): `continue`, or the MFA methods (`challenge`, `multiFactor`), or, for a user
    /// who needs MFA and has no method, the registration methods (`register`, `multiFactor`).
    func v2AfterFirstFactor(_ flow: inout V2Flow, world: inout EmulatorWorld, context: RequestContext) throws(Failure) -> HALAnswer {
        guard let user = world.users[flow.username?.lowercased() ?? ""], let app = v2App(flow) else { throw v2UserGone(context) }
        guard Self.needsMFA(user, app: app) || !flow.acrs.isEmpty else {
            return v2Continue(&flow, world: &world, now: context.now)
        }
        if !user.strongAuthMethods.isEmpty {
            flow.methods = user.strongAuthMethods.map { method in
                V2Method(id: method.id, type: method.channel.rawValue, target: method.target, role: .mfa, blocked: method.blocked)
            }
            let token = v2Advance(&flow, to: .mfa, world: &world, now: context.now)
            return HALAnswer(
                action: "challenge", scenario: flow.scenario, continuationToken: token, authenticationFactor: "multiFactor",
                methods: flow.methods)
        }
        flow.methods = ["email", "sms"].map { V2Method(id: UUID().uuidString.lowercased(), type: $0, target: nil, role: .registration) }
        let token = v2Advance(&flow, to: .registration, world: &world, now: context.now)
        return HALAnswer(
            action: "register", scenario: flow.scenario, continuationToken: token, authenticationFactor: "multiFactor",
            methods: flow.methods, methodRelation: "enroll")
    }

    /// `state: continue`.
    func v2Continue(_ flow: inout V2Flow, world: inout EmulatorWorld, now: Date) -> HALAnswer {
        HALAnswer.resume(token: v2Advance(&flow, to: .resume, world: &world, now: now), scenario: flow.scenario)
    }

    /// Sends the code of `method`, or first asks for the risk hop (an SMS while `sms_risk_verification`
    /// is `always`; the hop's token shares the current step's generation, so that step stays usable).
    func v2SendOrRiskHop(_ flow: inout V2Flow, method: V2Method, world: inout EmulatorWorld, _ r: V2Request) throws(Failure)
        -> HALAnswer
    {
        guard let app = v2App(flow) else { throw v2UserGone(r.context) }
        if method.type == "sms", (r.settings.smsRiskVerification ?? app.smsRiskVerification) == .always {
            flow.riskPending = method
            world.v2.flows[flow.id] = flow
            let token = v2IssueToken(flow, step: .risk, world: &world, now: r.context.now)
            return HALAnswer(
                action: "riskverify", scenario: flow.scenario, continuationToken: token, links: [("riskverify", .api("risk/phone/verify"))])
        }
        try v2CheckNotBlocked(method, flow: flow, context: r.context)
        return v2SendCode(&flow, method: method, world: &world, now: r.context.now)
    }

    /// Refuses a method the seed marks blocked or a contact in the app's `blocked_contacts`.
    private func v2CheckNotBlocked(_ method: V2Method, flow: V2Flow, context: RequestContext) throws(Failure) {
        let channel: Seed.StrongAuthMethod.Channel = method.type == "sms" ? .sms : .email
        let listed = method.target.map { target in v2App(flow).map { Self.isBlocked(target, channel: channel, app: $0) } ?? false } ?? false
        guard !method.blocked, !listed else {
            throw halError(
                "accessDenied", "providerBlockedByRep", 550024,
                "The service refuses to send a code to this \(channel == .sms ? "phone" : "address").",
                context: context)
        }
    }

    /// Sends a new code to `method` (8 digits by email, 6 by SMS; the previous code is retired) and
    /// answers `verify`, or `activate` for a contact being registered, with a `resend` link.
    func v2SendCode(_ flow: inout V2Flow, method: V2Method, world: inout EmulatorWorld, now: Date) -> HALAnswer {
        let purpose: CodePurpose
        switch method.role {
        case .firstFactor: purpose = .signIn
        case .mfa: purpose = .mfa
        case .registration: purpose = .registration
        case .signUp: purpose = .signUp
        case .recovery: purpose = .resetPassword
        }
        let username = flow.username ?? ""
        flow.code = sendCode(
            to: username, purpose: purpose, channel: method.type, target: method.target, now: now, world: &world, api: "v2",
            length: method.type == "sms" ? 6 : 8)
        flow.codeAttempts = 0
        flow.current = method
        flow.riskPending = nil
        let registering = method.role == .registration
        let token = v2Advance(&flow, to: registering ? .activate : .code, world: &world, now: now)
        let relation = registering ? "activate" : "verify"
        let route = Self.v2MethodRoute(method)
        return HALAnswer(
            action: relation, scenario: flow.scenario, continuationToken: token,
            links: [(relation, .api(route + "/" + relation)), ("resend", .api(route + "/challenge"))],
            method: method, codeLength: method.type == "sms" ? 6 : 8)
    }

    /// Checks a submitted code (constant time). A wrong or expired code leaves the token usable
    /// (`invalidGrant`/`invalidOneTimeCode` 50181) until the last allowed attempt, which ends the flow
    /// (`invalidGrant`/`tooManyAttempts` 50053).
    func v2CheckCode(_ submitted: String?, flow: inout V2Flow, world: inout EmulatorWorld, context: RequestContext) throws(Failure) {
        guard let submitted, !submitted.isEmpty else {
            throw halError("invalidRequest", nil, 90100, "otp parameter is empty or not valid.", context: context)
        }
        guard let code = flow.code else { throw v2InvalidToken(context) }
        let expired = code.expiresAt <= context.now
        guard !expired, Secrets.constantTimeEqual(submitted, code.code) else {
            flow.codeAttempts += 1
            if flow.codeAttempts >= configuration.maxCodeAttempts {
                v2End(flow, world: &world)
                throw v2TooManyAttempts(context)
            }
            world.v2.flows[flow.id] = flow
            throw halError(
                "invalidGrant", "invalidOneTimeCode", 50181,
                expired ? "The verification code has expired." : "Error in verifying the one-time passcode.", context: context)
        }
        flow.code = nil
    }

    func v2TooManyAttempts(_ context: RequestContext) -> Failure {
        halError("invalidGrant", "tooManyAttempts", 50053, "Too many failed attempts; the flow has ended.", context: context)
    }

    func v2UserGone(_ context: RequestContext) -> Failure {
        halError("invalidRequest", "userNotFound", 50034, "The user account does not exist in the directory.", context: context)
    }

    /// Registers `method` as a strong-auth method of the user (not twice for the same contact).
    private func v2AddStrongAuthMethod(_ method: V2Method, username: String, world: inout EmulatorWorld) {
        guard let target = method.target, let channel = Seed.StrongAuthMethod.Channel(rawValue: method.type),
            var user = world.users[username.lowercased()]
        else { return }
        let known = user.strongAuthMethods.contains { $0.channel == channel && $0.target.lowercased() == target.lowercased() }
        if !known { user.strongAuthMethods.append(Seed.StrongAuthMethod(id: method.id, channel: channel, target: target)) }
        world.users[username.lowercased()] = user
    }
}
