import Foundation

/// What a V2 interaction request sends besides `continuationToken` (docs/protocol.md#routes, sign-in rows).
package enum V2Body: Sendable, Equatable {
    /// `sign_in`: `{"username","continuationToken"}`.
    case startSignIn(username: String)
    /// `challenge`, `resend`, `riskverify`: the token only.
    case tokenOnly
    /// `verify` with a one-time code.
    case otp(String)
    /// `verify` with a password.
    case password(String)
    /// `enroll`/`register`: the contact, omitted when the method already has one.
    case target(String?)
    /// `activate` with the code sent to the method being registered.
    case activation(String)
    /// `sign_up`: the token and, when there is one, the username.
    case startSignUp(username: String?)
    /// `submitAttributes`: `{"continuationToken","attributes":{…}}`.
    case attributes([String: V2AttributeValue])
    /// `update` (sent with PUT): `{"continuationToken","newPassword"}`.
    case newPassword(String)

    /// PUT for `update`, POST for everything else.
    var httpMethod: String {
        if case .newPassword = self { return "PUT" }
        return "POST"
    }

    /// The JSON members, `continuationToken` included.
    func members(token: String) -> [String: Any] {
        var members: [String: Any] = ["continuationToken": token]
        switch self {
        case .startSignIn(let username): members["username"] = username
        case .tokenOnly, .target(nil): break
        case .otp(let code): members["otp"] = code
        case .password(let password): members["password"] = password
        case .target(let contact?): members["target"] = contact
        case .activation(let code): members["code"] = code
        case .startSignUp(let username): members["username"] = username
        case .attributes(let values): members["attributes"] = values.mapValues(\.json)
        case .newPassword(let password): members["newPassword"] = password
        }
        return members
    }
}

/// The answer to one V2 request: what the server said, or why nothing usable came back, and the
/// correlation id the flow goes on with.
package enum V2Reply: Sendable {
    case answer(V2Answer)
    case failure(MSALNativeAuthNetworkFailure)
}

extension NativeAuthClient {
    /// Native auth V2's requests (docs/decisions.md#native-auth-v2): the same transport, headers,
    /// interceptor, timeouts, body cap and logging as V1. Only the entry is retried here; the token
    /// request is V1's (`redeem`), retried as V1 does. Interaction, `poll` and resume requests are
    /// sent once: the service may already have spent the token (docs/compatibility.md#native-auth-v2).
    package var v2Links: V2Links { V2Links(authority: environment.authorityURL) }

    private var v2Decoder: V2AnswerDecoder { V2AnswerDecoder(links: v2Links, logger: environment.logger) }

    /// `POST {authority}/oauth2/v2.0/authorize-challenge` without a token: `client_id`,
    /// `response_type=code`, `scope` (OIDC defaults already in `scopes`) and `claims`.
    package func v2Enter(scopes: [String], claims: String?, correlationId: UUID) async -> (V2Reply, UUID) {
        let fields: [(String, String?)] = [
            ("client_id", environment.clientId), ("response_type", "code"), ("scope", Scopes.wire(scopes)), ("claims", claims),
        ]
        let endpoint = NativeAuthEndpoint.authorizeChallenge
        let request = await makeRequest(endpoint, fields: fields, correlationId: correlationId)
        let names = fields.compactMap { $0.1 == nil ? nil : $0.0 }.joined(separator: ",")
        environment.logger.info("POST \(endpoint.path) correlation \(correlationId.uuidString) fields \(names)")
        let exchange = await send(request, label: endpoint.path, retrying: true, everyStatus: true, correlationId: correlationId)
        return (v2Reply(exchange, as: .entry), exchange.correlationId)
    }

    /// A JSON request to a link of an earlier answer, answered in HAL.
    package func v2Interact(_ url: URL, _ body: V2Body, on continuation: Continuation, retrying: Bool = false) async -> (V2Reply, UUID) {
        let members = body.members(token: continuation.token)
        let data = (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])) ?? Data()
        let request = await makeRequest(
            method: body.httpMethod, url: url, body: data, contentType: "application/json", accept: "application/hal+json",
            telemetry: NativeAuthEndpoint.authorizeChallenge.currentTelemetry, correlationId: continuation.correlationId)
        let names = members.keys.sorted().joined(separator: ",")
        environment.logger.info("\(body.httpMethod) \(url.path) correlation \(continuation.correlationId.uuidString) members \(names)")
        let exchange = await send(
            request, label: url.path, retrying: retrying, everyStatus: true, correlationId: continuation.correlationId)
        return (v2Reply(exchange, as: .interaction), exchange.correlationId)
    }

    /// The resume: `continuation_token` alone (no `client_id`) to the `continue` link, else to the
    /// fixed authorize-challenge endpoint. Not retried.
    package func v2Resume(_ link: URL?, on continuation: Continuation) async -> (V2Reply, UUID) {
        let url = link ?? url(for: .authorizeChallenge)
        let request = await makeRequest(
            url: url, body: FormEncoding.encode([("continuation_token", continuation.token)]),
            telemetry: NativeAuthEndpoint.authorizeChallenge.currentTelemetry, correlationId: continuation.correlationId)
        environment.logger.info("POST \(url.path) correlation \(continuation.correlationId.uuidString) fields continuation_token")
        let exchange = await send(request, label: url.path, retrying: false, everyStatus: true, correlationId: continuation.correlationId)
        return (v2Reply(exchange, as: .resume), exchange.correlationId)
    }

    private func v2Reply(_ exchange: NativeAuthExchange, as request: V2AnswerDecoder.Request) -> V2Reply {
        switch exchange.result {
        case .failure(let failure): return .failure(failure)
        case .success(let response):
            let answer = v2Decoder.decode(status: response.status, body: response.body, as: request)
            if case .invalid(let reason) = answer { environment.logger.warning("Unusable V2 answer (HTTP \(response.status)): \(reason)") }
            return .answer(answer)
        }
    }
}
