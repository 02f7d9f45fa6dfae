import Foundation

/// `/signup/v1.0/start`, `/challenge` and `/continue` (docs/protocol.md#sign-up-endpoints, #sign-up).
extension EmulatorRouter {
    func signUpStart(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let username = r.form["username"], Self.isEmailAddress(username) else {
            throw apiError("invalid_request", 90100, "username parameter is empty or not valid.", context: context)
        }
        let types = try challengeTypes(r.form, context)
        guard r.app.signUpEnabled else {
            throw apiError("unsupported_auth_method", 50097, "Sign-up is not enabled for this application.", context: context)
        }
        guard types.contains("oob") else {
            return redirect("Sign-up verifies the email address with a one-time passcode, which the client cannot handle.")
        }
        if r.app.signUpMethod == .password, !types.contains("password") {
            return redirect("Sign-up for this application needs a password, which the client cannot handle.")
        }
        var pendingPassword: PasswordHash?
        if r.app.signUpMethod == .password, let password = r.form["password"] {
            try checkPasswordPolicy(password, username: username, current: nil, context: context)
            pendingPassword = PasswordHash(password: password, iterations: configuration.passwordHashIterations)
        }
        let attributes = try parseAttributes(r.form["attributes"], context: context)
        try validateAttributes(attributes, app: r.app, context: context)
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            guard world.users[username.lowercased()] == nil else {
                throw apiError("user_already_exists", 1_003_037, "It looks like you may already have an account.", context: context)
            }
            var flow = Flow(
                id: UUID().uuidString, kind: .signUp, clientId: r.app.clientId, username: username, step: .signUpStarted,
                createdAt: context.now)
            flow.pendingPassword = pendingPassword
            flow.pendingAttributes = attributes
            flow.capabilities = capabilities(r.form)
            let token = startFlow(flow, step: .signUpStarted, world: &world, now: context.now)
            return .json(200, ["continuation_token": token])
        }
    }

    func signUpChallenge(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let types = try challengeTypes(r.form, context)
        return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
            var flow = try flow(
                for: r.form["continuation_token"],
                accepting: [StepKey(.signUpStarted), StepKey(.signUpCodeSent), StepKey(.signUpCredentialRequired)],
                clientId: r.app.clientId, world: &world, context: context)
            if flow.step == .signUpCredentialRequired {
                guard types.contains("password") else { return redirect("A password is needed, which the client cannot handle.") }
                let token = advance(&flow, to: .signUpPasswordRequested, world: &world, now: context.now)
                return .json(200, ["continuation_token": token, "challenge_type": "password"])
            }
            guard types.contains("oob") else { return redirect("The email address must be verified with a one-time passcode.") }
            flow.code = sendCode(to: flow.username, purpose: .signUp, now: context.now, world: &world)
            flow.codeAttempts = 0
            let token = advance(&flow, to: .signUpCodeSent, world: &world, now: context.now)
            return .json(200, oobChallengeBody(token: token, username: flow.username))
        }
    }

    func signUpContinue(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let grantType = r.form["grant_type"] else { throw missingParameter("grant_type", context) }
        switch grantType {
        case "oob":
            return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
                var flow = try flow(
                    for: r.form["continuation_token"], accepting: [StepKey(.signUpCodeSent)],
                    clientId: r.app.clientId, world: &world, context: context)
                try checkCode(r.form["oob"], flow: &flow, world: &world, context: context)
                flow.emailVerified = true
                return try nextSignUpStep(&flow, app: r.app, world: &world, context: context)
            }
        case "password":
            guard let password = r.form["password"] else { throw missingParameter("password", context) }
            let username = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> String in
                try flow(
                    for: r.form["continuation_token"], accepting: [StepKey(.signUpPasswordRequested)],
                    clientId: r.app.clientId, world: &world, context: context
                ).username
            }
            try checkPasswordPolicy(password, username: username, current: nil, context: context)
            let hash = PasswordHash(password: password, iterations: configuration.passwordHashIterations)
            return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
                var flow = try flow(
                    for: r.form["continuation_token"], accepting: [StepKey(.signUpPasswordRequested)],
                    clientId: r.app.clientId, world: &world, context: context)
                flow.pendingPassword = hash
                return try nextSignUpStep(&flow, app: r.app, world: &world, context: context)
            }
        case "attributes":
            let attributes = try parseAttributes(r.form["attributes"], context: context)
            guard !attributes.isEmpty else { throw missingParameter("attributes", context) }
            try validateAttributes(attributes, app: r.app, context: context)
            return try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> EmulatorResponse in
                var flow = try flow(
                    for: r.form["continuation_token"], accepting: [StepKey(.signUpAttributesRequired)],
                    clientId: r.app.clientId, world: &world, context: context)
                // Optional attributes are accepted only before the email is verified (docs/protocol.md#sign-up-endpoints).
                let required = Set(r.app.attributes.filter(\.required).map(\.name))
                for (name, value) in attributes where required.contains(name) || !flow.emailVerified {
                    flow.pendingAttributes[name] = value
                }
                return try nextSignUpStep(&flow, app: r.app, world: &world, context: context)
            }
        default:
            throw apiError("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(grantType)'.", context: context)
        }
    }

    /// After a successful continue: ask for the password, then for missing required attributes
    /// (one screen at a time), then create the user.
    private func nextSignUpStep(_ flow: inout Flow, app: Seed.App, world: inout EmulatorWorld, context: RequestContext)
        throws(Failure) -> EmulatorResponse
    {
        if app.signUpMethod == .password, flow.pendingPassword == nil {
            let token = advance(&flow, to: .signUpCredentialRequired, world: &world, now: context.now)
            throw apiError(
                "credential_required", 55103, "Credential is required by the user flow.", extra: ["continuation_token": token],
                context: context)
        }
        let missing = app.attributes.filter { $0.required && (flow.pendingAttributes[$0.name] ?? "").isEmpty }
        if let screen = missing.map(\.screen).min() {
            let token = advance(&flow, to: .signUpAttributesRequired, world: &world, now: context.now)
            let wanted: [[String: Any]] = missing.filter { $0.screen == screen }.map { attribute in
                var entry: [String: Any] = ["name": attribute.name, "type": attribute.type, "required": true]
                if let regex = attribute.regex { entry["options"] = ["regex": regex] }
                return entry
            }
            throw apiError(
                "attributes_required", 55106, "User attributes required.",
                extra: ["continuation_token": token, "required_attributes": wanted], context: context)
        }
        guard world.users[flow.username.lowercased()] == nil else {
            advance(&flow, to: .finished, world: &world, now: context.now)
            throw apiError("user_already_exists", 1_003_037, "It looks like you may already have an account.", context: context)
        }
        world.users[flow.username.lowercased()] = UserRecord(
            newAccount: flow.username, password: flow.pendingPassword, attributes: flow.pendingAttributes)
        let token = advance(&flow, to: .signInAfter, world: &world, now: context.now)
        return .json(200, ["continuation_token": token, "expires_in": configuration.continuationTokenLifetime])
    }

    // MARK: Attributes and passwords

    /// The `attributes` form value: a JSON object whose values are strings (numbers and Booleans
    /// are taken as their text, arrays as comma-joined text).
    func parseAttributes(_ raw: String?, context: RequestContext) throws(Failure) -> [String: String] {
        guard let raw else { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(raw.utf8))) as? [String: Any] else {
            throw apiError("invalid_request", 90100, "attributes parameter is not a valid JSON object.", context: context)
        }
        var out: [String: String] = [:]
        for (name, value) in object {
            switch value {
            case let text as String: out[name] = text
            case let number as NSNumber: out[name] = number.stringValue
            case let list as [Any]: out[name] = list.map { "\($0)" }.joined(separator: ",")
            default: break
            }
        }
        return out
    }

    /// Known attributes must match their regex; unknown ones are ignored, as the service does.
    func validateAttributes(_ attributes: [String: String], app: Seed.App, context: RequestContext) throws(Failure) {
        var invalid: [String] = []
        for attribute in app.attributes {
            guard let value = attributes[attribute.name], let pattern = attribute.regex,
                let regex = try? NSRegularExpression(pattern: pattern)
            else { continue }
            let range = NSRange(value.startIndex..., in: value)
            if regex.firstMatch(in: value, range: range) == nil { invalid.append(attribute.name) }
        }
        guard invalid.isEmpty else {
            throw apiError(
                "invalid_grant", 55107, "User attribute validation failed.", suberror: "attribute_validation_failed",
                extra: ["invalid_attributes": invalid.sorted().map { ["name": $0] }], context: context)
        }
    }

    /// Entra's password rules (docs/protocol.md#passwords): 8–256 characters, at least three of lower case, upper
    /// case, digits and symbols, not the user's own name, not the current password.
    func checkPasswordPolicy(_ password: String, username: String, current: PasswordHash?, context: RequestContext) throws(Failure) {
        if let problem = Self.passwordPolicyProblem(password, username: username, current: current) {
            throw apiError("invalid_grant", 399246, problem.message, suberror: problem.suberror, context: context)
        }
    }

    /// The rule `password` breaks (V1's suberror and a message), or nil; native auth V2 maps the suberror to its codes.
    static func passwordPolicyProblem(_ password: String, username: String, current: PasswordHash?) -> (suberror: String, message: String)?
    {
        guard password.count >= 8 else { return ("password_too_short", "The password is too short.") }
        guard password.count <= 256 else { return ("password_too_long", "The password is too long.") }
        guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return ("password_is_invalid", "The password contains characters that are not allowed.")
        }
        let classes = [
            password.contains(where: \.isLowercase), password.contains(where: \.isUppercase),
            password.contains(where: \.isNumber), password.contains(where: { !$0.isLetter && !$0.isNumber }),
        ]
        guard classes.filter({ $0 }).count >= 3 else { return ("password_too_weak", "The password is too weak.") }
        let local = username.split(separator: "@").first.map { $0.lowercased() } ?? ""
        let banned = ["password", "12345678", "qwerty"] + (local.count >= 3 ? [local] : [])
        guard !banned.contains(where: { password.lowercased().contains($0) }) else {
            return ("password_banned", "The password contains a banned word or the user's name.")
        }
        if let current, current.matches(password) {
            return ("password_recently_used", "The password was used recently.")
        }
        return nil
    }

    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, text.count <= 254, !text.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
    }
}
