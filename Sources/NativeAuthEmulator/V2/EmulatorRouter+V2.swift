import Foundation

/// Native auth V2 dispatch (docs/protocol.md#native-auth-v2-experimental): the authorize-challenge endpoint
/// (form, flat OAuth errors) and the interaction routes under `/T/api/{segment}/` (JSON, nested HAL errors),
/// their continuation tokens and their request log. `EmulatorRouter.route` calls `routeV2` first.
extension EmulatorRouter {
    /// The answer when `context.endpoint` is a V2 route; nil otherwise (V1 handles it).
    func routeV2(_ context: RequestContext) -> EmulatorResponse? {
        if context.endpoint == "/oauth2/v2.0/authorize-challenge" { return v2AuthorizeChallengeRoute(context) }
        guard context.endpoint.hasPrefix("/api/") else { return nil }
        let settings = world.withLock { $0.v2.settings }
        let parts = context.endpoint.split(separator: "/").map(String.init) // ["api", segment, …]
        let tenant = String(context.request.path.split(separator: "/").first ?? "")
        var r = V2Request(context: context, tenant: tenant, settings: settings, route: parts.dropFirst(2).joined(separator: "/"))
        guard parts.count >= 3, parts[1] == "v2.0" || parts[1] == settings.apiSegment,
            let route = V2Route(Array(parts.dropFirst(2)))
        else {
            return halError(
                "notFound", nil, 90100, "No endpoint at \(context.request.method) \(context.request.path).", status: 404,
                context: context
            ).response
        }
        guard context.request.method == route.method else {
            var response = halError(
                "invalidRequest", nil, 900561, "The endpoint only accepts \(route.method) requests.", status: 405,
                context: context
            ).response
            response.headers["Allow"] = route.method
            return response
        }
        let response: EmulatorResponse
        if context.request.body.count > configuration.maxRequestBodyBytes {
            response =
                halError(
                    "invalidRequest", nil, 90100, "The request body is larger than \(configuration.maxRequestBodyBytes) bytes.",
                    status: 413, context: context
                ).response
        } else if !Self.isJSONMediaType(context.request.headers["content-type"]) {
            response =
                halError(
                    "invalidRequest", nil, 90100, "Content-Type header is empty or not valid: the request body must be application/json.",
                    context: context
                ).response
        } else if let body = (try? JSONSerialization.jsonObject(with: context.request.body)) as? [String: Any] {
            r.body = body
            do { response = try v2Dispatch(route, r) } catch { response = error.response }
        } else {
            response = halError("invalidRequest", nil, 90100, "The request body is not a valid JSON object.", context: context).response
        }
        logV2(context, body: r.body, status: response.status)
        return response
    }

    /// Whether a `Content-Type` names `application/json` (any case, parameters such as `charset` allowed): the
    /// service reads no other body on its interaction routes (docs/protocol.md#native-auth-v2-experimental).
    static func isJSONMediaType(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// An interaction route (the path after `/T/api/{segment}/`) and the HTTP method it takes.
    private enum V2Route {
        case signInStart, signUpStart, signUpSubmitAttributes, resetPasswordStart, riskVerify
        case register(type: String)
        case challenge(type: String, id: String)
        case verify(type: String, id: String)
        case activate(type: String, id: String)
        case updatePassword(id: String)
        case pollUpdate(id: String)
        case recover(id: String)

        init?(_ route: [String]) {
            switch route {
            case ["signin", "start"]: self = .signInStart
            case ["signup", "start"]: self = .signUpStart
            case ["signup", "submitattributes"]: self = .signUpSubmitAttributes
            case ["resetpassword", "start"]: self = .resetPasswordStart
            case ["risk", "phone", "verify"]: self = .riskVerify
            case let path where path.count == 4 && path[0] == "auth" && path[1] == "methods":
                if path[3] == "register" {
                    self = .register(type: path[2])
                } else if path[2] == "password" {
                    self = .updatePassword(id: path[3])
                } else {
                    return nil
                }
            case let path where path.count == 5 && path[0] == "auth" && path[1] == "methods":
                let (type, id) = (path[2], path[3])
                switch path[4] {
                case "challenge": self = .challenge(type: type, id: id)
                case "verify": self = .verify(type: type, id: id)
                case "activate": self = .activate(type: type, id: id)
                case "pollUpdate" where type == "password": self = .pollUpdate(id: id)
                case "recover" where type == "password": self = .recover(id: id)
                default: return nil
                }
            default: return nil
            }
        }

        var method: String {
            if case .updatePassword = self { return "PUT" }
            return "POST"
        }
    }

    private func v2Dispatch(_ route: V2Route, _ r: V2Request) throws(Failure) -> EmulatorResponse {
        switch route {
        case .signInStart: return try v2SignInStart(r)
        case .signUpStart: return try v2SignUpStart(r)
        case .signUpSubmitAttributes: return try v2SignUpSubmitAttributes(r)
        case .resetPasswordStart: return try v2ResetPasswordStart(r)
        case .riskVerify: return try v2RiskVerify(r)
        case .updatePassword(let id): return try v2UpdatePassword(r, id: id)
        case .pollUpdate(let id): return try v2PollUpdate(r, id: id)
        case .recover(let id): return try v2Recover(r, id: id)
        case .register(let type): return try v2Register(r, type: type)
        case .challenge(let type, let id): return try v2Challenge(r, type: type, id: id)
        case .verify(let type, let id): return try v2Verify(r, type: type, id: id)
        case .activate(let type, let id): return try v2Activate(r, type: type, id: id)
        }
    }

    // MARK: Tokens

    /// The flow behind a V2 continuation token, checked for this step (docs/protocol.md#native-auth-v2-experimental),
    /// with the pairs recorded from the service's V2 traffic (that section names the source): unknown, retired or of another
    /// step → `invalidRequest`/`invalidContinuationToken` AADSTS10040144; expired →
    /// `expiredToken`/`expiredContinuationToken` AADSTS552001. Missing or empty (another spelling is missing)
    /// → the missing-parameter answer, `invalidRequest`/`invalidContinuationToken` AADSTS90100.
    /// Returns the flow and the step the token was issued for.
    func v2Flow(_ token: String?, accepting steps: Set<V2Step>, world: inout EmulatorWorld, context: RequestContext) throws(Failure)
        -> (V2Flow, V2Step)
    {
        guard let token, !token.isEmpty else { throw v2MissingToken(context) }
        guard let record = world.v2.tokens[token], let flow = world.v2.flows[record.flowId] else { throw v2InvalidToken(context) }
        guard record.expiresAt > context.now else { throw v2ExpiredToken(context) }
        guard record.generation == flow.generation, steps.contains(record.step) else { throw v2InvalidToken(context) }
        return (flow, record.step)
    }

    /// A token the service does not know, or no longer takes here.
    func v2InvalidToken(_ context: RequestContext) -> Failure {
        halError("invalidRequest", "invalidContinuationToken", 10_040_144, "The continuation_token is invalid.", context: context)
    }

    /// A token past its lifetime.
    func v2ExpiredToken(_ context: RequestContext) -> Failure {
        halError("expiredToken", "expiredContinuationToken", 552_001, "The continuation_token has expired.", context: context)
    }

    /// No `continuationToken` member (or an empty one): a missing parameter, answered as the username's is.
    func v2MissingToken(_ context: RequestContext) -> Failure {
        halError(
            "invalidRequest", "invalidContinuationToken", 90100, "continuationToken parameter is empty or not valid.", context: context)
    }

    /// A new 256-bit token for `step` of `flow` (600 s by default).
    func v2IssueToken(_ flow: V2Flow, step: V2Step, world: inout EmulatorWorld, now: Date) -> String {
        let token = Secrets.opaqueToken()
        world.v2.tokens[token] = V2TokenRecord(
            flowId: flow.id, step: step, generation: flow.generation,
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.continuationTokenLifetime)))
        return token
    }

    /// Moves `flow` to `step` (retiring the tokens of another step; a repeated step, a resend, retires
    /// nothing), stores it and returns a token for the step. **Choice**: a method picked from a list
    /// (its password, code or activation step) keeps the list's tokens, so the app may pick again on
    /// the same state (after a wrong code, say) until the factor is passed (docs/protocol.md#tokens).
    func v2Advance(_ flow: inout V2Flow, to step: V2Step, world: inout EmulatorWorld, now: Date) -> String {
        if step != flow.step, !Self.v2KeepsChoice(from: flow.step, to: step) { flow.generation += 1 }
        flow.step = step
        world.v2.flows[flow.id] = flow
        return v2IssueToken(flow, step: step, world: &world, now: now)
    }

    /// A move from a list of methods (or from one of its methods) to a method's own step.
    static func v2KeepsChoice(from: V2Step, to: V2Step) -> Bool {
        let methodSteps: Set<V2Step> = [.password, .code, .activate]
        let choices: Set<V2Step> = [.firstFactor, .mfa, .recovery, .registration]
        return methodSteps.contains(to) && (choices.contains(from) || methodSteps.contains(from))
    }

    /// Ends `flow`: its tokens then answer as invalid.
    func v2End(_ flow: V2Flow, world: inout EmulatorWorld) {
        world.v2.flows.removeValue(forKey: flow.id)
    }

    /// Keeps V2 memory bounded as V1's sweep does: past `maxFlows`, flows older than the token and code
    /// lifetimes go, then the oldest; tokens of gone flows and old codes go with them.
    func v2Sweep(world: inout EmulatorWorld, now: Date) {
        let limit = configuration.maxFlows
        guard world.v2.flows.count > limit || world.v2.tokens.count > 4 * max(limit, 1000) || world.v2.codes.count > limit else {
            return
        }
        let horizon = TimeInterval(configuration.continuationTokenLifetime + configuration.codeLifetime)
        world.v2.flows = world.v2.flows.filter { $0.value.createdAt.addingTimeInterval(horizon) > now }
        if world.v2.flows.count > limit {
            let kept = world.v2.flows.sorted { $0.value.createdAt > $1.value.createdAt }.prefix(limit)
            world.v2.flows = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        world.v2.tokens = world.v2.tokens.filter { $0.value.expiresAt > now && world.v2.flows[$0.value.flowId] != nil }
        let codeHorizon = TimeInterval(2 * configuration.authorizationCodeLifetime)
        world.v2.codes = world.v2.codes.filter { $0.value.issuedAt.addingTimeInterval(codeHorizon) > now }
    }

    /// The app a flow belongs to.
    func v2App(_ flow: V2Flow) -> Seed.App? {
        seed.app(clientId: flow.clientId)
    }

    // MARK: Request log

    /// Logs a JSON request, secrets redacted and contacts masked (docs/emulator.md#native-auth-v2-experimental).
    func logV2(_ context: RequestContext, body: [String: Any], status: Int) {
        let redacted: Set<String> = ["password", "newPassword", "otp", "code", "continuationToken", "continuation_token"]
        var fields: [String: String] = [:]
        for (name, value) in body {
            if redacted.contains(name) {
                fields[name] = "<redacted>"
            } else if name == "target", let contact = value as? String {
                fields[name] = Self.maskedContact(contact)
            } else if name == "attributes", var attributes = value as? [String: Any] {
                for key in attributes.keys where key.lowercased() == "password" { attributes[key] = "<redacted>" }
                fields[name] = Self.compactJSON(attributes)
            } else {
                fields[name] = value as? String ?? Self.compactJSON(value)
            }
        }
        let entry = LoggedRequest(
            method: context.request.method, path: context.request.path, endpoint: context.endpoint, fields: fields,
            clientRequestId: context.request.headers["client-request-id"], status: status, at: context.now)
        world.withLock { world in
            world.requestLog.append(entry)
            let limit = configuration.maxRequestLogEntries
            if world.requestLog.count > limit + max(1, limit / 10) {
                world.requestLog.removeFirst(world.requestLog.count - limit)
            }
        }
    }

    private static func compactJSON(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .withoutEscapingSlashes])
        else { return String(describing: value) }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
