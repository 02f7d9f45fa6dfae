import Foundation

/// Multifactor authentication: `/oauth2/v2.0/introspect`, `/challenge` with `id` and the `mfa_oob` grant
/// (docs/protocol.md#sign-in-endpoints, #token-requests, #multifactor-authentication), the client's
/// `capabilities` (#capabilities), and the decision, once a first factor has passed, whether the user is
/// signed in, must pass MFA or must first register a method (JIT).
extension EmulatorRouter {
    static let knownCapabilities: Set<String> = ["mfa_required", "registration_required"]

    /// The known values of `capabilities` (the SDK's name) and `capability` (the docs'), split on
    /// spaces and commas; unknown values are ignored.
    func capabilities(_ form: FormBody) -> Set<String> {
        var found: Set<String> = []
        for name in ["capabilities", "capability"] {
            guard let raw = form[name] else { continue }
            for value in raw.split(whereSeparator: { $0 == " " || $0 == "," }) {
                let capability = value.lowercased()
                if Self.knownCapabilities.contains(capability) { found.insert(capability) }
            }
        }
        return found
    }

    /// Whether `user` must pass a second factor to sign in to `app`.
    static func needsMFA(_ user: UserRecord, app: Seed.App) -> Bool {
        app.mfaPolicy == .required || user.mfaRequired
    }

    /// Called under the lock once the first factor of `flow` has passed (password, email code, or
    /// the token after sign-up or reset). Returns when the user is signed in (the flow is then
    /// finished); otherwise throws the answer: `mfa_required` (50076) or `registration_required`
    /// (50079) with a token for the next step, or, when the flow's client did not declare the
    /// capability, the 200 redirect the service sends (the flow then ends).
    ///
    /// A second factor is needed when the user or the app's policy asks for MFA, and when the token
    /// request's `claims` ask for an authentication context (`acrs`): Entra's conditional access
    /// for a context requires MFA, which the native API completes with the `mfa_required` (or
    /// `registration_required`) capability and otherwise sends to the browser. The tokens issued
    /// after the second factor carry the requested `acrs`.
    func requireSecondFactor(
        _ flow: inout Flow, user: UserRecord, app: Seed.App, acrs: [String] = [], world: inout EmulatorWorld, context: RequestContext
    ) throws(Failure) {
        guard Self.needsMFA(user, app: app) || !acrs.isEmpty else {
            advance(&flow, to: .finished, world: &world, now: context.now)
            return
        }
        flow.requestedAcrs = acrs
        if !user.strongAuthMethods.isEmpty {
            guard flow.capabilities.contains("mfa_required") else {
                advance(&flow, to: .finished, world: &world, now: context.now)
                throw Failure(response: redirect("Client is missing the mfa_required capability"))
            }
            let token = advance(&flow, to: .mfaRequired, world: &world, now: context.now)
            throw apiError(
                "invalid_grant", 50076,
                "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '\(app.clientId)'.",
                suberror: "mfa_required", extra: ["continuation_token": token], context: context)
        }
        guard flow.capabilities.contains("registration_required") else {
            advance(&flow, to: .finished, world: &world, now: context.now)
            throw Failure(response: redirect("Client is missing the registration_required capability"))
        }
        let token = advance(&flow, to: .registrationRequired, world: &world, now: context.now)
        throw apiError(
            "invalid_grant", 50079,
            "Due to a configuration change made by your administrator, or because you moved to a new location, you must enroll in multi-factor authentication to access '\(app.clientId)'.",
            suberror: "registration_required", extra: ["continuation_token": token], context: context)
    }

    /// `POST /oauth2/v2.0/introspect`: the user's strong-auth methods, targets masked.
    func mfaIntrospect(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.mfaRequired)], clientId: r.app.clientId, world: &world,
                context: context)
            guard let user = world.users[flow.username.lowercased()] else {
                throw apiError("user_not_found", 50034, "The user account does not exist in the directory.", context: context)
            }
            let token = advance(&flow, to: .mfaIntrospected, world: &world, now: context.now)
            let methods: [[String: Any]] = user.strongAuthMethods.map { method in
                [
                    "id": method.id, "challenge_type": "oob", "challenge_channel": method.channel.rawValue,
                    "login_hint": Self.maskedTarget(method),
                ]
            }
            return .json(200, ["continuation_token": token, "methods": methods])
        }
    }

    /// `POST /oauth2/v2.0/challenge` with `id`: sends a new code to that method (the previous MFA
    /// code stops working). Takes the introspect token or the token of an earlier MFA challenge
    /// (resend, or another method). `challenge_type` is optional here (the docs send none, docs/protocol.md#docs-versus-msal)
    /// and need not contain `oob`: the `mfa_required` capability already says the client can do it.
    func mfaChallenge(_ r: NativeRequest, id: String) throws(Failure) -> EmulatorResponse {
        let context = r.context
        if r.form["challenge_type"] != nil { _ = try challengeTypes(r.form, context) }
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"],
                accepting: [
                    StepKey(.signInInitiated), StepKey(.signInOOBChallenge), StepKey(.mfaIntrospected), StepKey(.mfaCodeSent),
                ],
                clientId: r.app.clientId, world: &world, context: context)
            guard flow.step == .mfaIntrospected || flow.step == .mfaCodeSent else {
                throw apiError(
                    "invalid_request", 901007,
                    "The id parameter is only valid with the continuation_token from /oauth2/v2.0/introspect or an MFA challenge.",
                    context: context)
            }
            guard let user = world.users[flow.username.lowercased()] else {
                throw apiError("user_not_found", 50034, "The user account does not exist in the directory.", context: context)
            }
            guard let method = user.strongAuthMethods.first(where: { $0.id.lowercased() == id.lowercased() }) else {
                throw apiError(
                    "invalid_request", 90100,
                    "id parameter is empty or not valid: the user has no strong authentication method with this id.",
                    context: context)
            }
            guard !method.blocked else {
                throw apiError(
                    "access_denied", 550024, "The strong authentication method is blocked: the service refuses to send a code to it.",
                    suberror: "provider_blocked_by_rep", context: context)
            }
            flow.code = sendCode(
                to: user.username, purpose: .mfa, channel: method.channel.rawValue, target: method.target, now: context.now, world: &world)
            flow.codeAttempts = 0
            flow.mfaMethodId = method.id
            let token = advance(&flow, to: .mfaCodeSent, world: &world, now: context.now)
            return .json(
                200,
                [
                    "continuation_token": token, "challenge_type": "oob", "binding_method": "prompt",
                    "challenge_channel": method.channel.rawValue, "challenge_target_label": Self.maskedTarget(method),
                    "code_length": configuration.codeLength, "interval": configuration.resendInterval,
                ])
        }
    }

    // MARK: Masking and contacts

    static func maskedTarget(_ method: Seed.StrongAuthMethod) -> String {
        method.channel == .email ? maskedEmail(method.target) : maskedPhone(method.target)
    }

    /// `+15550100` → `+*******0100`: the last four digits behind a fixed-width mask, so neither
    /// the country code nor the length shows.
    static func maskedPhone(_ number: String) -> String {
        let digits = number.filter { $0.isASCII && $0.isNumber }
        return "+*******" + (digits.count > 4 ? String(digits.suffix(4)) : "")
    }

    /// An email address or a phone number, masked as its kind is (for the request log).
    static func maskedContact(_ contact: String) -> String {
        contact.contains("@") ? maskedEmail(contact) : maskedPhone(contact)
    }

    /// A phone number as the emulator accepts it: `+` and 8–15 digits once spaces and dashes are
    /// dropped (`+1 555-0100` → `+15550100`); nil for anything else.
    static func normalizedPhoneNumber(_ text: String) -> String? {
        let compact = text.filter { $0 != " " && $0 != "-" }
        guard compact.first == "+" else { return nil }
        let digits = compact.dropFirst()
        guard (8...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return compact
    }

    /// What is wrong with a list of strong-auth methods (seed or add-user hook), or nil.
    static func strongAuthMethodsProblem(_ methods: [Seed.StrongAuthMethod]) -> String? {
        var ids: Set<String> = []
        for method in methods {
            guard !method.id.isEmpty else { return "a strong-auth method has an empty id" }
            guard ids.insert(method.id.lowercased()).inserted else { return "strong-auth method id '\(method.id)' is used twice" }
            switch method.channel {
            case .email where !isEmailAddress(method.target):
                return "strong-auth method '\(method.id)': target must be an email address"
            case .sms where normalizedPhoneNumber(method.target) == nil:
                return "strong-auth method '\(method.id)': target must be a phone number, + and 8 to 15 digits"
            default: continue
            }
        }
        return nil
    }
}
