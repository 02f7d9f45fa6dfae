import Foundation
import MSAL

/// The emulator's request handling: a pure function of the request and the emulator's state,
/// callable in-process (see `EmulatorTransport`) and served over HTTP by `EmulatorServer`.
///
/// Native-auth endpoints live under the tenant, `/{subdomain}.onmicrosoft.com/…` (or the tenant
/// id); test hooks under `/_emulator/`; the sample protected APIs at their seeded paths.
public final class EmulatorRouter: Sendable {
    /// The tenant, apps, users and sample APIs the router serves.
    public let seed: Seed
    /// Lifetimes, limits and lengths (codes, tokens, flows) the router applies.
    public let configuration: EmulatorConfiguration
    let signingKey: RSAKey
    let world: Locked<EmulatorWorld>
    private let wallClock: @Sendable () -> Date
    private let mailObserver: (@Sendable (EmulatorMail) -> Void)?

    /// Creates a router over `seed`. `onMail` is called for every one-time code "sent"
    /// (the executable prints it; the demo shows it in its mailbox panel).
    public init(
        seed: Seed = .demo, configuration: EmulatorConfiguration = EmulatorConfiguration(),
        now: @escaping @Sendable () -> Date = { Date() }, onMail: (@Sendable (EmulatorMail) -> Void)? = nil
    ) throws {
        self.seed = seed
        self.configuration = configuration
        signingKey = try RSAKey(keyID: "emulator-" + Base64URLCoding.encode(Secrets.randomBytes(6)))
        wallClock = now
        mailObserver = onMail
        var initial = EmulatorWorld()
        for user in seed.users {
            initial.users[user.username.lowercased()] = UserRecord(user, passwordHashIterations: configuration.passwordHashIterations)
        }
        world = Locked(initial)
        try validateSeed()
    }

    private func validateSeed() throws {
        guard !seed.apps.isEmpty else { throw EmulatorError("seed: at least one app is needed") }
        for api in seed.apis where !api.scopes.contains(api.requiredScope) {
            throw EmulatorError("seed: api '\(api.name)' requires scope '\(api.requiredScope)', which it does not define")
        }
        for app in seed.apps {
            for attribute in app.attributes {
                if let regex = attribute.regex, (try? NSRegularExpression(pattern: regex)) == nil {
                    throw EmulatorError("seed: attribute '\(attribute.name)' of app '\(app.clientId)' has an invalid regex")
                }
                if let label = attribute.label, label.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw EmulatorError("seed: attribute '\(attribute.name)' of app '\(app.clientId)' has an empty label")
                }
            }
        }
        for user in seed.users {
            if let problem = Self.strongAuthMethodsProblem(user.strongAuthMethods) ?? user.v2FieldsProblem {
                throw EmulatorError("seed: user '\(user.username)': \(problem)")
            }
        }
    }

    /// The emulator's current time: the wall clock moved by `POST /_emulator/clock`.
    public func now() -> Date {
        wallClock().addingTimeInterval(world.withLock { $0.clockOffset })
    }

    /// The issuer of every token: `https://{tenantId}.ciamlogin.com/{tenantId}/v2.0`.
    public var issuer: String { "https://\(seed.tenant.id).ciamlogin.com/\(seed.tenant.id)/v2.0" }

    /// The signing keys the sample APIs trust (the JWKS).
    public var keys: [RSAKey] { [signingKey] }

    /// The authority an SDK is configured with for a server at `baseURL`.
    public func authority(baseURL: String) -> String { "\(baseURL)/\(seed.tenant.subdomain).onmicrosoft.com" }

    // MARK: Dispatch

    struct RequestContext {
        var request: EmulatorRequest
        var now: Date
        var correlationId: String
        var endpoint: String
    }

    /// Answers one request.
    public func handle(_ request: EmulatorRequest) -> EmulatorResponse {
        let now = self.now()
        sweep(now: now)
        let correlationId =
            request.headers["client-request-id"].flatMap { UUID(uuidString: $0)?.uuidString.lowercased() }
            ?? UUID().uuidString.lowercased()

        if Self.isHookPath(request.path) {
            return handleHook(request, now: now)
        }
        if let api = seed.apis.first(where: { $0.path == request.path }) {
            return withFaults(endpoint: request.path, request: request, now: now, correlationId: correlationId) {
                handleSampleAPI(api, request: request, now: now)
            }
        }

        let segments = request.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true)
        guard segments.count == 2, isTenant(String(segments[0])) else {
            return notFound(request)
        }
        let endpoint = "/" + segments[1]
        let context = RequestContext(request: request, now: now, correlationId: correlationId, endpoint: endpoint)
        var response = withFaults(endpoint: endpoint, request: request, now: now, correlationId: correlationId) {
            route(context)
        }
        if let echoed = request.headers["client-request-id"] {
            response.headers["client-request-id"] = echoed
        }
        return response
    }

    /// Whether `path` is a test hook (`/_emulator/…`); `EmulatorServer` guards the same paths.
    static func isHookPath(_ path: String) -> Bool { path.hasPrefix("/_emulator/") }

    private func isTenant(_ segment: String) -> Bool {
        let lowered = segment.lowercased()
        return lowered == "\(seed.tenant.subdomain).onmicrosoft.com".lowercased() || lowered == seed.tenant.id.lowercased()
            || lowered == seed.tenant.subdomain.lowercased()
    }

    private func notFound(_ request: EmulatorRequest) -> EmulatorResponse {
        .json(404, ["error": "not_found", "error_description": "No endpoint at \(request.method) \(request.path)"])
    }

    /// Native-auth endpoints (all POST) and the discovery documents (GET).
    private func route(_ context: RequestContext) -> EmulatorResponse {
        let request = context.request
        switch context.endpoint {
        case "/v2.0/.well-known/openid-configuration":
            guard request.method == "GET" else { return methodNotAllowed("GET", context) }
            return openIDConfiguration(context)
        case "/discovery/v2.0/keys":
            guard request.method == "GET" else { return methodNotAllowed("GET", context) }
            return .json(200, ["keys": keys.map(\.jwk)])
        case "/oauth2/v2.0/authorize": return authorize(context)
        case "/oauth2/v2.0/logout": return logout(context)
        default:
            break
        }
        if let v2 = routeV2(context) { return v2 } // V2/EmulatorRouter+V2.swift
        guard let handler = nativeHandler(context.endpoint) else { return notFound(request) }
        guard request.method == "POST" else { return methodNotAllowed("POST", context) }
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            return apiError("invalid_request", 900561, "The request body must be application/x-www-form-urlencoded.", context: context)
                .response
        }
        guard request.body.count <= configuration.maxRequestBodyBytes else {
            return .json(
                413,
                [
                    "error": "invalid_request",
                    "error_description": "The request body is larger than \(configuration.maxRequestBodyBytes) bytes.",
                ])
        }
        let form: FormBody
        do {
            form = try FormBody(request.body)
        } catch .duplicate(let name) {
            return apiError("invalid_request", 90015, "The parameter '\(name)' is duplicated.", context: context).response
        } catch {
            return apiError("invalid_request", 90014, "The request body is not a valid form.", context: context).response
        }
        let response: EmulatorResponse
        do {
            if context.endpoint == "/oauth2/v2.0/token", form["grant_type"] == "authorization_code" {
                // Browser sign-in or a V2 resume's code: no native-auth client checks.
                response =
                    try isV2AuthorizationCode(form["code"])
                    ? v2AuthorizationCodeGrant(form, context) : authorizationCodeGrant(form, context)
            } else {
                let app = try validateClient(form, context)
                response = try handler(NativeRequest(form: form, app: app, context: context))
            }
        } catch {
            response = error.response
        }
        log(context, form: form, status: response.status)
        return response
    }

    private func methodNotAllowed(_ allowed: String, _ context: RequestContext) -> EmulatorResponse {
        var response = apiError("invalid_request", 900561, "The endpoint only accepts \(allowed) requests.", status: 405, context: context)
            .response
        response.headers["Allow"] = allowed
        return response
    }

    struct NativeRequest {
        var form: FormBody
        var app: Seed.App
        var context: RequestContext
    }

    /// The handler of each native-auth endpoint (docs/protocol.md#endpoint-list).
    private func nativeHandler(_ endpoint: String) -> ((NativeRequest) throws(Failure) -> EmulatorResponse)? {
        switch endpoint {
        case "/oauth2/v2.0/initiate": return signInInitiate
        case "/oauth2/v2.0/challenge": return signInChallenge
        case "/oauth2/v2.0/introspect": return mfaIntrospect
        case "/oauth2/v2.0/token": return token
        case "/signup/v1.0/start": return signUpStart
        case "/signup/v1.0/challenge": return signUpChallenge
        case "/signup/v1.0/continue": return signUpContinue
        case "/resetpassword/v1.0/start": return resetPasswordStart
        case "/resetpassword/v1.0/challenge": return resetPasswordChallenge
        case "/resetpassword/v1.0/continue": return resetPasswordContinue
        case "/resetpassword/v1.0/submit": return resetPasswordSubmit
        case "/resetpassword/v1.0/poll_completion": return resetPasswordPoll
        case "/register/v1.0/introspect": return registerIntrospect
        case "/register/v1.0/challenge": return registerChallenge
        case "/register/v1.0/continue": return registerContinue
        default: return nil
        }
    }

    /// Validation order of docs/protocol.md#validation-order, first part: the client.
    func validateClient(_ form: FormBody, _ context: RequestContext) throws(Failure) -> Seed.App {
        guard let clientId = form["client_id"] else {
            throw apiError("invalid_request", 90100, "client_id parameter is empty or not valid.", context: context)
        }
        guard let app = seed.app(clientId: clientId) else {
            throw apiError(
                "unauthorized_client", 700016,
                "Application with identifier '\(clientId)' was not found in the directory '\(seed.tenant.subdomain)'.", context: context)
        }
        guard app.nativeAuthEnabled, app.publicClient else {
            throw apiError(
                "invalid_client", 550022, "The application is not enabled for native authentication.",
                suberror: "nativeauthapi_disabled", context: context)
        }
        return app
    }

    /// The client's `challenge_type` list (docs/protocol.md#challenge-types): must contain `redirect` and only known values.
    func challengeTypes(_ form: FormBody, _ context: RequestContext) throws(Failure) -> Set<String> {
        guard let raw = form["challenge_type"] else { throw missingParameter("challenge_type", context) }
        let values = Set(raw.split(separator: " ").map(String.init))
        let known: Set<String> = ["oob", "password", "redirect"]
        guard values.isSubset(of: known) else {
            throw apiError("unsupported_challenge_type", 901007, "The challenge_type list contains an unsupported value.", context: context)
        }
        guard values.contains("redirect") else {
            throw apiError("invalid_request", 901007, "The challenge_type list parameter must contain 'redirect'.", context: context)
        }
        return values
    }

    // MARK: Codes

    /// Sends a code for the account `username` (records it in that account's mailbox and tells the
    /// observer). `target` is where it goes when that is not the account's own email address (a
    /// strong-auth method or a contact being registered).
    /// `api` and `length` are set by native auth V2 (`v2`; 8 digits by email, 6 by SMS).
    func sendCode(
        to username: String, purpose: CodePurpose, channel: String = "email", target: String? = nil, now: Date,
        world: inout EmulatorWorld, api: String? = nil, length: Int? = nil
    ) -> OneTimeCode {
        let code = OneTimeCode(
            code: Secrets.numericCode(length: length ?? configuration.codeLength),
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.codeLifetime)))
        let mail = Mail(
            to: username, code: code.code, purpose: purpose, sentAt: now, channel: channel, target: target ?? username, api: api)
        world.mailbox[username.lowercased(), default: []].append(mail)
        if let mailObserver {
            let message = EmulatorMail(
                to: username, code: code.code, purpose: purpose.rawValue, sentAt: now, channel: mail.channel, target: mail.target,
                api: api)
            mailObserver(message)
        }
        return code
    }

    // MARK: Flows and tokens

    /// Starts a flow and returns its first continuation token.
    func startFlow(_ flow: Flow, step: FlowStep, world: inout EmulatorWorld, now: Date) -> String {
        var flow = flow
        flow.step = step
        world.flows[flow.id] = flow
        world.flowOrder.append(flow.id)
        return issueToken(flowId: flow.id, step: step, generation: flow.generation, world: &world, now: now)
    }

    func issueToken(flowId: String, step: FlowStep, generation: Int, world: inout EmulatorWorld, now: Date) -> String {
        let token = Secrets.opaqueToken()
        world.tokens[token] = TokenRecord(
            flowId: flowId, step: step, generation: generation,
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.continuationTokenLifetime)))
        return token
    }

    /// Moves `flow` to `step`, retiring the tokens of earlier steps, and returns a token for it.
    /// A step repeated (a resend: another challenge from the code step) retires nothing: a token
    /// stays valid until the flow moves past its step, as the service keeps it (MSAL's end-to-end
    /// tests submit the new code with the token of the state that asked for the resend). A
    /// finished flow is forgotten at once (its tokens then answer as invalid).
    @discardableResult
    func advance(_ flow: inout Flow, to step: FlowStep, world: inout EmulatorWorld, now: Date) -> String {
        if step != flow.step { flow.generation += 1 }
        flow.step = step
        if step == .finished {
            world.flows.removeValue(forKey: flow.id)
            return ""
        }
        world.flows[flow.id] = flow
        return issueToken(flowId: flow.id, step: step, generation: flow.generation, world: &world, now: now)
    }

    /// Looks up the flow behind a continuation token and checks it may be used here (docs/protocol.md#continuation-tokens).
    /// `expiredCode` is the error code of an expired token (`/register/v1.0/*` answers 55112).
    func flow(
        for token: String?, accepting steps: Set<StepKey>, clientId: String, world: inout EmulatorWorld, context: RequestContext,
        grant: Bool = false, expiredCode: Int = 552003
    ) throws(Failure) -> Flow {
        guard let token else { throw missingParameter("continuation_token", context) }
        guard let record = world.tokens[token], var flow = world.flows[record.flowId], flow.clientId == clientId else {
            throw invalidContinuationToken(context, grant: grant)
        }
        guard record.expiresAt > context.now else {
            throw expiredContinuationToken(context, code: expiredCode)
        }
        guard record.generation == flow.generation, steps.contains(StepKey(record.step)), StepKey(record.step) == StepKey(flow.step) else {
            if record.generation != flow.generation { throw invalidContinuationToken(context, grant: grant) }
            throw wrongEndpointToken(context)
        }
        flow.step = record.step
        return flow
    }

    /// Hashable stand-in for a step (FlowStep is compared by case).
    struct StepKey: Hashable {
        let name: String
        init(_ step: FlowStep) { name = String(describing: step) }
    }
}
