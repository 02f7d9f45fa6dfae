import Foundation

/// Just-in-time strong-auth method registration: `/register/v1.0/introspect`, `/challenge` and
/// `/continue` (docs/protocol.md#registration-endpoints, #strong-auth-registration). An expired token on these endpoints answers
/// `expired_token`
/// with error code 55112, as the service does.
extension EmulatorRouter {
    static let registerExpiredCode = 55112

    /// The methods a user may register: email (the sign-in address is offered, masked) and SMS.
    func registerIntrospect(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.registrationRequired)], clientId: r.app.clientId,
                world: &world, context: context, expiredCode: Self.registerExpiredCode)
            let token = advance(&flow, to: .registrationIntrospected, world: &world, now: context.now)
            let methods: [[String: Any]] = [
                ["id": "email", "challenge_type": "oob", "challenge_channel": "email", "login_hint": Self.maskedEmail(flow.username)],
                ["id": "sms", "challenge_type": "oob", "challenge_channel": "sms"],
            ]
            return .json(200, ["continuation_token": token, "methods": methods])
        }
    }

    /// Takes the contact the user typed. The sign-in address itself is `preverified` (no code);
    /// any other valid, unblocked contact gets a code. Also takes the token of an earlier register
    /// challenge: a new code (the previous one stops working), or another contact.
    func registerChallenge(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"],
                accepting: [StepKey(.registrationIntrospected), StepKey(.registrationChallenged)], clientId: r.app.clientId,
                world: &world, context: context, expiredCode: Self.registerExpiredCode)
            guard let rawTypes = r.form["challenge_type"] else { throw missingParameter("challenge_type", context) }
            let types = Set(rawTypes.split(separator: " ").map(String.init))
            guard types.contains("oob"), types.isSubset(of: ["oob", "redirect"]) else {
                throw apiError(
                    "unsupported_challenge_type", 901007, "Strong authentication methods are registered with challenge_type 'oob'.",
                    context: context)
            }
            let typed = r.form["challenge_target"] ?? ""
            let channelName = r.form["challenge_channel"] ?? (typed.contains("@") ? "email" : "sms")
            guard let channel = Seed.StrongAuthMethod.Channel(rawValue: channelName) else {
                throw apiError(
                    "invalid_request", 90100, "challenge_channel parameter is empty or not valid (email or sms).", context: context)
            }
            let target: String
            switch channel {
            case .email:
                guard Self.isEmailAddress(typed) else {
                    throw apiError("invalid_request", 901001, "The verification contact is not a valid email address.", context: context)
                }
                target = typed
            case .sms:
                guard let number = Self.normalizedPhoneNumber(typed) else {
                    throw apiError(
                        "invalid_request", 901001, "The verification contact is not a valid phone number (+ and 8 to 15 digits).",
                        context: context)
                }
                target = number
            }
            if Self.isBlocked(target, channel: channel, app: r.app) {
                throw apiError(
                    "access_denied", 550024, "The verification contact is blocked: the service refuses to send a code to it.",
                    suberror: "provider_blocked_by_rep", context: context)
            }
            flow.registrationChannel = channel
            if channel == .email, target.lowercased() == flow.username.lowercased() {
                flow.registrationTarget = flow.username
                flow.registrationPreverified = true
                flow.code = nil
                let token = advance(&flow, to: .registrationChallenged, world: &world, now: context.now)
                return .json(200, ["continuation_token": token, "challenge_type": "preverified"])
            }
            flow.registrationTarget = target
            flow.registrationPreverified = false
            flow.code = sendCode(
                to: flow.username, purpose: .registration, channel: channel.rawValue, target: target, now: context.now, world: &world)
            flow.codeAttempts = 0
            let token = advance(&flow, to: .registrationChallenged, world: &world, now: context.now)
            return .json(
                200,
                [
                    "continuation_token": token, "challenge_type": "oob", "binding_method": "prompt", "challenge_target": typed,
                    "challenge_channel": channel.rawValue, "code_length": configuration.codeLength,
                    "interval": configuration.resendInterval,
                ])
        }
    }

    /// Proves the contact (`grant_type=oob` with the code, or `continuation_token` after a
    /// preverified challenge), adds the method to the user and returns the token that signs in.
    func registerContinue(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let grantType = r.form["grant_type"] else { throw missingParameter("grant_type", context) }
        guard grantType == "oob" || grantType == "continuation_token" else {
            throw apiError("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(grantType)'.", context: context)
        }
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.registrationChallenged)], clientId: r.app.clientId,
                world: &world, context: context, expiredCode: Self.registerExpiredCode)
            switch (grantType, flow.registrationPreverified) {
            case ("oob", false):
                try checkCode(r.form["oob"], flow: &flow, world: &world, context: context)
            case ("oob", true):
                throw apiError(
                    "invalid_grant", 55200, "No code was sent: the contact is preverified, continue with grant_type=continuation_token.",
                    context: context)
            case (_, false):
                throw apiError(
                    "invalid_grant", 55200, "The contact is not preverified: continue with grant_type=oob and the code that was sent.",
                    context: context)
            default:
                break
            }
            guard var user = world.users[flow.username.lowercased()] else {
                throw apiError("user_not_found", 50034, "The user account does not exist in the directory.", context: context)
            }
            guard let channel = flow.registrationChannel, let target = flow.registrationTarget else {
                throw invalidContinuationToken(context, grant: true)
            }
            let known = user.strongAuthMethods.contains { $0.channel == channel && $0.target.lowercased() == target.lowercased() }
            if !known {
                user.strongAuthMethods.append(Seed.StrongAuthMethod(id: UUID().uuidString.lowercased(), channel: channel, target: target))
                world.users[flow.username.lowercased()] = user
            }
            let token = advance(&flow, to: .registrationCompleted, world: &world, now: context.now)
            return .json(200, ["continuation_token": token])
        }
    }

    /// Whether the app's `blocked_contacts` holds `target` (emails case-insensitively, phone
    /// numbers once spaces and dashes are dropped).
    static func isBlocked(_ target: String, channel: Seed.StrongAuthMethod.Channel, app: Seed.App) -> Bool {
        app.blockedContacts.contains { entry in
            switch channel {
            case .email: entry.lowercased() == target.lowercased()
            case .sms: (normalizedPhoneNumber(entry) ?? entry) == target
            }
        }
    }
}
