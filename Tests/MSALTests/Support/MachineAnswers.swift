import Foundation
import MSAL
import TestSupport

@testable import MSAL

/// Server answers for the machine tests, as `NativeAuthClient.call` decodes them.
enum Answer {
    static let first = UUID(uuidString: "aaaaaaaa-0000-0000-0000-000000000001")!
    static let second = UUID(uuidString: "aaaaaaaa-0000-0000-0000-000000000002")!

    static func error(
        _ error: NativeAuthErrorCode, _ suberror: NativeAuthErrorCode? = nil, codes: [Int] = [], description: String? = "refused",
        token: String? = nil, required: [String] = [], invalid: [String] = []
    ) -> NativeAuthAPIError {
        NativeAuthAPIError(
            error: error, errorDescription: description, errorCodes: codes, suberror: suberror, continuationToken: token,
            requiredAttributes: required.map { .init(name: $0, type: "string", required: true, regex: nil) },
            invalidAttributes: invalid)
    }

    static let unreachable = MSALNativeAuthNetworkFailure(kind: .transport, message: "The request failed: unreachable")

    static func code(_ token: String = "T-code") -> ChallengeResponse {
        .oob(continuationToken: token, targetLabel: "a***@co**o.com", channel: "email", codeLength: 8, interval: 300)
    }

    static func password(_ token: String = "T-password") -> ChallengeResponse { .password(continuationToken: token) }

    /// `/resetpassword/v1.0/poll_completion` 200 with this status.
    static func polled(_ status: String, token: String? = nil) -> ResetPasswordPollResponse {
        let body = token.map { #"{"status":"\#(status)","continuation_token":"\#($0)"}"# } ?? #"{"status":"\#(status)"}"#
        return try! ResetPasswordPollResponse(json: Data(body.utf8))
    }

    /// `/resetpassword/v1.0/submit` 200.
    static func submitted(_ token: String, interval: Int) -> ResetPasswordSubmitResponse {
        try! ResetPasswordSubmitResponse(json: Data(#"{"continuation_token":"\#(token)","poll_interval":\#(interval)}"#.utf8))
    }

    /// `/signup/v1.0/continue` 200, with or without a token to sign in with.
    static func signedUp(_ token: String?) -> SignUpCompletedResponse {
        let body = token.map { #"{"continuation_token":"\#($0)"}"# } ?? "{}"
        return try! SignUpCompletedResponse(json: Data(body.utf8))
    }
}

/// The failure a machine decided on, or an error saying what it decided instead.
func failure<Result, Call>(_ action: FlowAction<Result, Call>) throws -> FlowFailure {
    guard case .fail(let failure) = action else { throw UnexpectedOutcome("expected a failure, got \(action)") }
    return failure
}

/// The result a machine decided on, or an error saying what it decided instead.
func result<Result, Call>(_ action: FlowAction<Result, Call>) throws -> Result {
    guard case .succeed(let result) = action else { throw UnexpectedOutcome("expected a result, got \(action)") }
    return result
}

/// The request a machine asked for next, or an error saying what it decided instead.
func call<Result, Call>(_ action: FlowAction<Result, Call>) throws -> Call {
    guard case .call(let call) = action else { throw UnexpectedOutcome("expected a request, got \(action)") }
    return call
}
