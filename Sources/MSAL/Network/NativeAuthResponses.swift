import Foundation

/// The decoded answer to a native-auth request (docs/protocol.md#response-handling-by-status, #response-bodies).
package enum NativeAuthOutcome<Success: Sendable>: Sendable {
    /// HTTP 200 with the endpoint's success body.
    case success(Success)
    /// HTTP 200 `{"challenge_type":"redirect"}`: the flow needs a browser (docs/protocol.md#redirect-answer).
    case redirect(reason: String?)
    /// HTTP 400/401 with the error envelope.
    case apiError(NativeAuthAPIError)
    /// No usable answer: transport failure, unexpected status, or an undecodable body.
    case failure(MSALNativeAuthNetworkFailure)
}

/// A body the SDK can decode from a 200 answer. Decoding is strict: a missing mandatory field or an
/// unknown `challenge_type` is an error, never a guess.
package protocol NativeAuthSuccessBody: Sendable {
    init(json: Data) throws(NativeAuthDecodingError)
}

package struct NativeAuthDecodingError: Error, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}

/// The error envelope of an HTTP 400/401 answer (docs/protocol.md#error-envelope).
package struct NativeAuthAPIError: Sendable, Equatable {
    package var error: NativeAuthErrorCode
    package var errorDescription: String?
    package var errorCodes: [Int]
    package var errorURI: String?
    package var suberror: NativeAuthErrorCode?
    package var continuationToken: String?
    package var requiredAttributes: [RequiredAttribute]
    package var invalidAttributes: [String]
    package var unverifiedAttributes: [String]

    package struct RequiredAttribute: Sendable, Equatable {
        package var name: String
        package var type: String
        package var required: Bool
        package var regex: String?
    }

    package init(
        error: NativeAuthErrorCode, errorDescription: String? = nil, errorCodes: [Int] = [], errorURI: String? = nil,
        suberror: NativeAuthErrorCode? = nil, continuationToken: String? = nil,
        requiredAttributes: [RequiredAttribute] = [], invalidAttributes: [String] = [], unverifiedAttributes: [String] = []
    ) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorCodes = errorCodes
        self.errorURI = errorURI
        self.suberror = suberror
        self.continuationToken = continuationToken
        self.requiredAttributes = requiredAttributes
        self.invalidAttributes = invalidAttributes
        self.unverifiedAttributes = unverifiedAttributes
    }

    /// The first of `error_codes`, the one the SDK inspects.
    package var firstCode: Int? { errorCodes.first }

    private struct Wire: Decodable {
        struct Attribute: Decodable {
            struct Options: Decodable { var regex: String? }
            var name: String
            var type: String
            var required: Bool
            var options: Options?
        }
        struct Named: Decodable { var name: String }
        var error: String
        var errorDescription: String?
        var errorCodes: [Int]?
        var errorUri: String?
        var suberror: String?
        var continuationToken: String?
        var requiredAttributes: [Attribute]?
        var invalidAttributes: [Named]?
        var unverifiedAttributes: [Named]?
    }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "error response")
        guard !wire.error.isEmpty else { throw NativeAuthDecodingError("The error response has an empty 'error'") }
        self.init(
            error: NativeAuthErrorCode(rawValue: wire.error),
            errorDescription: wire.errorDescription,
            errorCodes: wire.errorCodes ?? [],
            errorURI: wire.errorUri,
            suberror: wire.suberror.flatMap { $0.isEmpty ? nil : NativeAuthErrorCode(rawValue: $0) },
            continuationToken: wire.continuationToken,
            requiredAttributes: (wire.requiredAttributes ?? []).map {
                RequiredAttribute(name: $0.name, type: $0.type, required: $0.required, regex: $0.options?.regex)
            },
            invalidAttributes: (wire.invalidAttributes ?? []).map(\.name),
            unverifiedAttributes: (wire.unverifiedAttributes ?? []).map(\.name))
    }
}

/// `challenge_type` in a response; anything else makes the body undecodable (docs/protocol.md#success-bodies).
package enum NativeAuthChallengeType: String, Sendable {
    case oob
    case password
    case redirect
}

/// `/oauth2/v2.0/initiate`, `/signup/v1.0/start`, `/resetpassword/v1.0/start`: a continuation token.
package struct ContinuationTokenResponse: NativeAuthSuccessBody, Equatable {
    package var continuationToken: String

    private struct Wire: Decodable { var continuationToken: String? }

    package init(continuationToken: String) { self.continuationToken = continuationToken }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "response")
        continuationToken = try required(wire.continuationToken, "continuation_token")
    }
}

/// A challenge answer (docs/protocol.md#sign-in-endpoints challenge): a password is wanted, or a code was sent.
package enum ChallengeResponse: NativeAuthSuccessBody, Equatable {
    case password(continuationToken: String)
    case oob(continuationToken: String, targetLabel: String, channel: String, codeLength: Int, interval: Int?)

    private struct Wire: Decodable {
        var continuationToken: String?
        var challengeType: String?
        var bindingMethod: String?
        var challengeChannel: String?
        var challengeTargetLabel: String?
        var codeLength: Int?
        var interval: Int?
    }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "challenge response")
        let type = try challengeType(wire.challengeType)
        switch type {
        case .password:
            self = .password(continuationToken: try required(wire.continuationToken, "continuation_token"))
        case .oob:
            let codeLength = try required(wire.codeLength, "code_length")
            guard codeLength > 0, codeLength <= 64 else {
                throw NativeAuthDecodingError("The challenge response has an implausible code_length \(codeLength)")
            }
            self = .oob(
                continuationToken: try required(wire.continuationToken, "continuation_token"),
                targetLabel: try required(wire.challengeTargetLabel, "challenge_target_label"),
                channel: try required(wire.challengeChannel, "challenge_channel"),
                codeLength: codeLength, interval: wire.interval)
        case .redirect:
            // Caught before decoding; here only for completeness.
            throw NativeAuthDecodingError("Unexpected redirect in a challenge response")
        }
    }
}

/// `/signup/v1.0/continue` 200: the user exists; the token, when present, signs them in (docs/protocol.md#sign-up-endpoints).
package struct SignUpCompletedResponse: NativeAuthSuccessBody, Equatable {
    package var continuationToken: String?

    private struct Wire: Decodable { var continuationToken: String? }

    package init(json: Data) throws(NativeAuthDecodingError) {
        // Any 200 counts as completion, even one whose body cannot be read.
        let wire: Wire? = try? decodeJSON(json, "sign-up response")
        continuationToken = wire?.continuationToken.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// `/resetpassword/v1.0/submit` 200: the token to poll with and how often (docs/protocol.md#password-reset-endpoints).
package struct ResetPasswordSubmitResponse: NativeAuthSuccessBody, Equatable {
    package var continuationToken: String
    package var pollInterval: Int

    private struct Wire: Decodable {
        var continuationToken: String?
        var pollInterval: Int?
    }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "password submit response")
        continuationToken = try required(wire.continuationToken, "continuation_token")
        pollInterval = try required(wire.pollInterval, "poll_interval")
        guard (0...300).contains(pollInterval) else {
            throw NativeAuthDecodingError("The password submit response has an implausible poll_interval \(pollInterval)")
        }
    }
}

/// `/resetpassword/v1.0/poll_completion` 200 (docs/protocol.md#password-reset-endpoints).
package struct ResetPasswordPollResponse: NativeAuthSuccessBody, Equatable {
    package enum Status: String, Sendable {
        case succeeded
        case inProgress = "in_progress"
        case failed
        case notStarted = "not_started"
    }

    package var status: Status
    package var continuationToken: String?

    private struct Wire: Decodable {
        var status: String?
        var continuationToken: String?
    }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "poll response")
        let raw = try required(wire.status, "status")
        guard let status = Status(rawValue: raw) else {
            throw NativeAuthDecodingError("The poll response has an unknown status '\(raw)'")
        }
        self.status = status
        continuationToken = wire.continuationToken.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A successful `/oauth2/v2.0/token` answer (docs/protocol.md#token-response), checked as IdentityCore checks it.
package struct TokenResponse: NativeAuthSuccessBody, Equatable {
    package var tokenType: String?
    package var scope: String?
    package var expiresIn: Double?
    package var extExpiresIn: Double?
    package var expiresOn: Double?
    /// Seconds after which the service advises refreshing the access token (it stays valid until
    /// it expires); cached as the access token's `refresh_on`.
    package var refreshIn: Double?
    package var accessToken: String?
    package var refreshToken: String?
    package var idToken: String?
    package var clientInfo: String

    private struct Wire: Decodable {
        var tokenType: String?
        var scope: String?
        var expiresIn: FlexibleNumber?
        var extExpiresIn: FlexibleNumber?
        var expiresOn: FlexibleNumber?
        var refreshIn: FlexibleNumber?
        var accessToken: String?
        var refreshToken: String?
        var idToken: String?
        var clientInfo: String?
    }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "token response")
        guard let clientInfo = wire.clientInfo, !clientInfo.isEmpty else {
            throw NativeAuthDecodingError("Client info was not returned in the token response")
        }
        let access = wire.accessToken.flatMap { $0.isEmpty ? nil : $0 }
        let id = wire.idToken.flatMap { $0.isEmpty ? nil : $0 }
        guard access != nil || id != nil else {
            throw NativeAuthDecodingError("The token response contains neither an access token nor an id token")
        }
        if let type = wire.tokenType, !type.isEmpty, type.lowercased() != "bearer" {
            throw NativeAuthDecodingError("The token response has token_type '\(type)'; only Bearer is supported")
        }
        tokenType = wire.tokenType
        scope = wire.scope
        expiresIn = wire.expiresIn?.value
        extExpiresIn = wire.extExpiresIn?.value
        expiresOn = wire.expiresOn?.value
        refreshIn = (wire.refreshIn?.value).flatMap { $0 > 0 ? $0 : nil }
        accessToken = access
        refreshToken = wire.refreshToken.flatMap { $0.isEmpty ? nil : $0 }
        idToken = id
        self.clientInfo = clientInfo
    }
}

/// A number sent either as a JSON number or as a numeric string (token lifetimes, docs/protocol.md#token-response).
private struct FlexibleNumber: Decodable {
    var value: Double

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            value = number
        } else if let text = try? container.decode(String.self), let number = Double(text.trimmingCharacters(in: .whitespaces)) {
            value = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a number or a numeric string")
        }
    }
}

/// Probes a 200 body for the redirect shape before strict decoding.
package struct RedirectProbe: Decodable {
    var challengeType: String?
    var redirectReason: String?

    package static func reason(in json: Data) -> String?? {
        guard let probe = try? decoder.decode(RedirectProbe.self, from: json), probe.challengeType == "redirect" else {
            return nil
        }
        return .some(probe.redirectReason)
    }
}

private let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
}()

func decodeJSON<T: Decodable>(_ data: Data, _ what: String) throws(NativeAuthDecodingError) -> T {
    guard !data.isEmpty else { throw NativeAuthDecodingError("The \(what) body is empty") }
    do {
        return try decoder.decode(T.self, from: data)
    } catch let DecodingError.keyNotFound(key, _) {
        throw NativeAuthDecodingError("The \(what) lacks the mandatory field '\(snake(key.stringValue))'")
    } catch let DecodingError.typeMismatch(_, context) {
        let path = context.codingPath.map { snake($0.stringValue) }.joined(separator: ".")
        throw NativeAuthDecodingError("The \(what) has a field of the wrong type at '\(path)'")
    } catch let DecodingError.valueNotFound(_, context) {
        let path = context.codingPath.map { snake($0.stringValue) }.joined(separator: ".")
        throw NativeAuthDecodingError("The \(what) has null at '\(path)'")
    } catch {
        throw NativeAuthDecodingError("The \(what) is not valid JSON")
    }
}

func required<T>(_ value: T?, _ field: String) throws(NativeAuthDecodingError) -> T {
    guard let value else { throw NativeAuthDecodingError("The response lacks the mandatory field '\(field)'") }
    if let text = value as? String, text.isEmpty {
        throw NativeAuthDecodingError("The response has an empty '\(field)'")
    }
    return value
}

func challengeType(_ raw: String?) throws(NativeAuthDecodingError) -> NativeAuthChallengeType {
    guard let raw else { throw NativeAuthDecodingError("The response lacks the mandatory field 'challenge_type'") }
    guard let type = NativeAuthChallengeType(rawValue: raw) else {
        throw NativeAuthDecodingError("The response has an unknown challenge_type '\(raw)'")
    }
    return type
}

private func snake(_ key: String) -> String {
    var out = ""
    for character in key {
        if character.isUppercase {
            out += "_" + character.lowercased()
        } else {
            out.append(character)
        }
    }
    return out
}
