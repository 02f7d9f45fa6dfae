import Foundation

/// `/oauth2/v2.0/introspect` and `/register/v1.0/introspect` 200 (docs/protocol.md#sign-in-endpoints, #registration-endpoints): the
/// methods the
/// user has (MFA) or may register (registration), and the token to continue with.
package struct IntrospectResponse: NativeAuthSuccessBody, Equatable {
    package struct Method: Sendable, Equatable {
        package var id: String
        package var challengeType: String
        package var channel: String
        package var loginHint: String?
    }

    package var continuationToken: String
    package var methods: [Method]

    private struct Wire: Decodable {
        struct Method: Decodable {
            var id: String?
            var challengeType: String?
            var challengeChannel: String?
            var loginHint: String?
        }
        var continuationToken: String?
        var methods: [Method]?
    }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "introspect response")
        continuationToken = try required(wire.continuationToken, "continuation_token")
        let methods = try required(wire.methods, "methods")
        guard !methods.isEmpty else { throw NativeAuthDecodingError("The introspect response lists no methods") }
        guard methods.count <= 64 else { throw NativeAuthDecodingError("The introspect response lists \(methods.count) methods") }
        var decoded: [Method] = []
        for method in methods {
            let type = try challengeType(method.challengeType)
            decoded.append(
                Method(
                    id: try required(method.id, "methods.id"), challengeType: type.rawValue,
                    channel: try required(method.challengeChannel, "methods.challenge_channel"),
                    loginHint: method.loginHint.flatMap { $0.isEmpty ? nil : $0 }))
        }
        self.methods = decoded
    }
}

/// `/register/v1.0/challenge` 200 (docs/protocol.md#registration-endpoints): a code was sent to the contact, or the contact is
/// already verified and the client continues at once.
package enum RegisterChallengeResponse: NativeAuthSuccessBody, Equatable {
    case oob(continuationToken: String, target: String, channel: String, codeLength: Int)
    case preverified(continuationToken: String)

    private struct Wire: Decodable {
        var continuationToken: String?
        var challengeType: String?
        var challengeTarget: String?
        var challengeChannel: String?
        var codeLength: Int?
    }

    package init(json: Data) throws(NativeAuthDecodingError) {
        let wire: Wire = try decodeJSON(json, "register challenge response")
        let token = try required(wire.continuationToken, "continuation_token")
        switch try required(wire.challengeType, "challenge_type") {
        case "preverified":
            self = .preverified(continuationToken: token)
        case "oob":
            let codeLength = try required(wire.codeLength, "code_length")
            guard codeLength > 0, codeLength <= 64 else {
                throw NativeAuthDecodingError("The register challenge response has an implausible code_length \(codeLength)")
            }
            self = .oob(
                continuationToken: token, target: try required(wire.challengeTarget, "challenge_target"),
                channel: try required(wire.challengeChannel, "challenge_channel"), codeLength: codeLength)
        case let other:
            throw NativeAuthDecodingError("The register challenge response has an unknown challenge_type '\(other)'")
        }
    }
}
