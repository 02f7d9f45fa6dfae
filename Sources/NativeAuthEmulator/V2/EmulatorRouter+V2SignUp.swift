import Foundation

/// Native auth V2 sign-up (docs/protocol.md#native-auth-v2-experimental): `signup/start` and
/// `signup/submitattributes`. The email address first (`collectAttributes`), then its code (`verify`, the
/// sign-in routes), then the password (password apps) and the app's attributes in one `collectAttributes`,
/// asked again while required ones are missing; the account is then created and the flow answers `continue`.
/// An existing address sent as `username` at the start is discovered as at sign-in.
extension EmulatorRouter {
    /// `POST signup/start {continuationToken, username?}`.
    func v2SignUpStart(_ r: V2Request) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, _) = try v2Flow(r.continuationToken, accepting: [.entry], world: &world, context: context)
            guard let app = v2App(flow), app.signUpEnabled else {
                throw halError("invalidRequest", nil, 50097, "Sign-up is not enabled for this application.", context: context)
            }
            flow.journey = .signUp
            if let username = r.string("username") {
                guard Self.isEmailAddress(username) else {
                    throw halError("invalidRequest", nil, 90100, "username parameter is empty or not valid.", context: context)
                }
                if let user = world.users[username.lowercased()] {
                    if v2NeedsBrowser(user, r) {
                        v2End(flow, world: &world)
                        throw v2WebFallback(context)
                    }
                    return v2FirstFactors(&flow, user: user, world: &world, now: context.now)
                }
            }
            return v2CollectAttributes(&flow, [Self.v2EmailAttribute], step: .signUpEmail, world: &world, now: context.now)
        }
        return halResponse(answer, r)
    }

    /// `POST signup/submitattributes {continuationToken, attributes}`. Ids the step does not take are ignored
    /// (the email step takes `email`; the next one `password` for password apps and the app's attributes).
    func v2SignUpSubmitAttributes(_ r: V2Request) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let raw = r.body["attributes"] as? [String: Any] else {
            throw halError("invalidRequest", nil, 90100, "attributes parameter is empty or not valid.", context: context)
        }
        let submitted = Self.v2AttributeValues(raw)
        enum Outcome {
            case answered(HALAnswer)
            /// Values the attributes step takes, regexes passed; the password (if any) is checked and hashed next.
            case values([String: String], username: String)
        }
        let outcome = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> Outcome in
            var (flow, step) = try v2Flow(
                r.continuationToken, accepting: [.signUpEmail, .signUpAttributes], world: &world, context: context)
            guard let app = v2App(flow) else { throw v2UserGone(context) }
            guard step == .signUpAttributes else {
                guard let email = submitted["email"], !email.isEmpty else {
                    return .answered(
                        v2CollectAttributes(&flow, [Self.v2EmailAttribute], step: .signUpEmail, world: &world, now: context.now))
                }
                guard Self.isEmailAddress(email) else {
                    throw v2AttributeError(["email"], "invalidAttributeValue", "The email address is not valid.", context: context)
                }
                guard world.users[email.lowercased()] == nil else {
                    v2End(flow, world: &world)
                    throw v2UserAlreadyExists(context)
                }
                flow.username = email
                let method = V2Method(id: UUID().uuidString.lowercased(), type: "email", target: email, role: .signUp)
                flow.methods = [method]
                return .answered(v2SendCode(&flow, method: method, world: &world, now: context.now))
            }
            var taken = Set(app.attributes.map(\.name))
            if app.signUpMethod == .password { taken.insert("password") }
            let values = submitted.filter { taken.contains($0.key) && !$0.value.isEmpty }
            let refused = app.attributes.filter { attribute in
                guard let value = values[attribute.name], let pattern = attribute.regex,
                    let regex = try? NSRegularExpression(pattern: pattern)
                else { return false }
                return regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) == nil
            }
            guard refused.isEmpty else {
                throw v2AttributeError(
                    refused.map(\.name), "invalidAttributeValue", "The value does not match the attribute's format.", context: context)
            }
            return .values(values, username: flow.username ?? "")
        }
        guard case .values(var values, let username) = outcome else {
            if case .answered(let answer) = outcome { return halResponse(answer, r) }
            throw v2InvalidToken(context)
        }
        // Hashed outside the lock (as V1's sign-up), stored under it again.
        var hash: PasswordHash?
        if let password = values.removeValue(forKey: "password") {
            if let problem = Self.passwordPolicyProblem(password, username: username, current: nil) {
                throw v2AttributeError(["password"], "passwordPolicyViolation", problem.message, context: context)
            }
            hash = PasswordHash(password: password, iterations: configuration.passwordHashIterations)
        }
        let answer = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> HALAnswer in
            var (flow, _) = try v2Flow(r.continuationToken, accepting: [.signUpAttributes], world: &world, context: context)
            guard let app = v2App(flow) else { throw v2UserGone(context) }
            flow.pendingAttributes.merge(values) { _, new in new }
            if let hash { flow.pendingPassword = hash }
            return try v2SignUpNext(&flow, app: app, world: &world, context: context)
        }
        return halResponse(answer, r)
    }

    /// The address is proved: ask for the password (password apps) and every attribute of the app; with
    /// nothing to ask (an email-code app without attributes) the account is created at once and the flow
    /// answers `continue`, as the service does.
    func v2SignUpVerified(_ flow: inout V2Flow, world: inout EmulatorWorld, context: RequestContext) throws(Failure) -> HALAnswer {
        guard let app = v2App(flow) else { throw v2UserGone(context) }
        let password = app.signUpMethod == .password ? [Self.v2PasswordAttribute] : []
        let asked = password + app.attributes.map(Self.v2Attribute)
        guard !asked.isEmpty else { return try v2SignUpNext(&flow, app: app, world: &world, context: context) }
        return v2CollectAttributes(&flow, asked, step: .signUpAttributes, world: &world, now: context.now)
    }

    /// Asks again for what is still missing (the password, required attributes: a 200 `collectAttributes`,
    /// **Choice**: listing only those), or creates the account and answers `continue`.
    private func v2SignUpNext(_ flow: inout V2Flow, app: Seed.App, world: inout EmulatorWorld, context: RequestContext) throws(Failure)
        -> HALAnswer
    {
        var missing: [V2Attribute] = []
        if app.signUpMethod == .password, flow.pendingPassword == nil { missing.append(Self.v2PasswordAttribute) }
        missing += app.attributes.filter { $0.required && (flow.pendingAttributes[$0.name] ?? "").isEmpty }.map(Self.v2Attribute)
        guard missing.isEmpty else {
            return v2CollectAttributes(&flow, missing, step: .signUpAttributes, world: &world, now: context.now)
        }
        guard let username = flow.username, world.users[username.lowercased()] == nil else {
            v2End(flow, world: &world)
            throw v2UserAlreadyExists(context)
        }
        world.users[username.lowercased()] = UserRecord(
            newAccount: username, password: flow.pendingPassword, attributes: flow.pendingAttributes)
        flow.pendingPassword = nil
        return v2Continue(&flow, world: &world, now: context.now)
    }

    /// A `collectAttributes` answer for `asked`, with its `submitAttributes` link.
    private func v2CollectAttributes(_ flow: inout V2Flow, _ asked: [V2Attribute], step: V2Step, world: inout EmulatorWorld, now: Date)
        -> HALAnswer
    {
        flow.asked = asked
        let token = v2Advance(&flow, to: step, world: &world, now: now)
        return HALAnswer(
            action: "collectAttributes", scenario: flow.scenario, continuationToken: token,
            links: [("submitAttributes", .api("signup/submitattributes"))], attributes: asked)
    }

    static let v2EmailAttribute = V2Attribute(id: "email", label: "Email")
    static let v2PasswordAttribute = V2Attribute(id: "password", inputType: "password", label: "Password", confirmationInput: "retype")

    /// The descriptor of a seed attribute: its `type` (`string` is `text`), `required`, `label` (else the name), `regex`.
    static func v2Attribute(_ attribute: Seed.Attribute) -> V2Attribute {
        V2Attribute(
            id: attribute.name, inputType: attribute.type == "string" ? "text" : attribute.type, required: attribute.required,
            label: attribute.label ?? attribute.name, regex: attribute.regex)
    }

    /// Submitted values as text: strings as they are, Booleans `true`/`false`, numbers as written, lists of
    /// strings comma-joined (V1's rule); others are dropped.
    static func v2AttributeValues(_ raw: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for (name, value) in raw {
            if let text = value as? String {
                out[name] = text
            } else if value is Bool, let flag = value as? Bool {
                out[name] = flag ? "true" : "false"
            } else if let number = value as? NSNumber {
                out[name] = number.stringValue
            } else if let list = value as? [Any] {
                out[name] = list.map { "\($0)" }.joined(separator: ",")
            }
        }
        return out
    }

    /// `invalidRequest`/`attributeValidationError` AADSTS1002027 with one detail naming `ids`.
    private func v2AttributeError(_ ids: [String], _ detail: String, _ message: String, context: RequestContext) -> Failure {
        halError(
            "invalidRequest", "attributeValidationError", 1_002_027, "User attribute validation failed.",
            details: [["attributeIds": ids, "code": detail, "message": message]], context: context)
    }

    /// The address has an account (found at the email submit): the flow ends.
    private func v2UserAlreadyExists(_ context: RequestContext) -> Failure {
        halError(
            "invalidRequest", "attributeValidationError", 1_003_037, "It looks like you may already have an account.",
            details: [["attributeIds": ["email"], "code": "userAlreadyExists", "message": "An account with this email address exists."]],
            context: context)
    }
}
