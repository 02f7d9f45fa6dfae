import Foundation
import Testing

@testable import MSAL

/// Every server-answer row of docs/error-mapping.md#server-answers for the browser flow (the redirect's `error`, the
/// code redemption's answer) and the ways a browser sign-in ends without a code (docs/error-mapping.md#internal-codes).
@Suite struct StandardErrorMappingTests {
    static let correlation = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!

    @Test(
        arguments: [
            ("access_denied", [Int](), MSALError.userCanceled, nil),
            ("interaction_required", [], .interactionRequired, nil),
            ("invalid_request", [], .internal, MSALInternalError.internalErrorInvalidRequest.rawValue),
            ("invalid_client", [], .internal, MSALInternalError.internalErrorInvalidClient.rawValue),
            ("invalid_grant", [], .internal, MSALInternalError.internalErrorInvalidGrant.rawValue),
            ("invalid_scope", [], .internal, MSALInternalError.internalErrorInvalidScope.rawValue),
            ("unauthorized_client", [], .internal, MSALInternalError.internalErrorUnauthorizedClient.rawValue),
            ("server_error", [], .internal, MSALError.serverError.rawValue),
            ("login_required", [], .internal, MSALInternalError.internalErrorAuthorizationFailed.rawValue),
            ("consent_required", [], .internal, MSALInternalError.internalErrorAuthorizationFailed.rawValue),
            ("invalid_request", [50142], .serverInvalidRequestResetPasswordRequired, nil),
        ] as [(String, [Int], MSALError, Int?)])
    func aBrowserFlowAnswer(error: String, codes: [Int], expected: MSALError, internalCode: Int?) {
        let mapped = StandardErrors.fromServer(
            .init(error: error, suberror: nil, codes: codes, description: "AADSTS: \(error)"), flow: .interactive,
            correlationId: Self.correlation)
        #expect(mapped.domain == MSALErrorDomain && mapped.code == expected.rawValue)
        #expect(mapped.userInfo[MSALInternalErrorCodeKey] as? Int == internalCode)
        #expect(mapped.userInfo[MSALOAuthErrorKey] as? String == error)
        #expect(mapped.userInfo[MSALCorrelationIDKey] as? String == Self.correlation.uuidString)
        #expect(mapped.localizedDescription == "AADSTS: \(error)")
    }

    @Test(
        arguments: [
            (InteractiveAuthorizationError.cancelled(.timedOut(seconds: 1)), MSALError.userCanceled, nil),
            (.cancelled(.cancelCalled), .userCanceled, nil),
            (.cancelled(.taskCancelled), .userCanceled, nil),
            (.stateMismatch, .internal, MSALInternalError.internalErrorInvalidState),
            (.sessionAlreadyRunning, .internal, .internalErrorInteractiveSessionAlreadyRunning),
            (.noBrowser("no browser"), .internal, .internalErrorNoViewController),
            (.invalidRedirectURI("bad"), .internal, .internalErrorInvalidRedirectURI),
            (.portUnavailable(port: 5000), .internal, .internalErrorInvalidParameter),
            (.invalidResponse("neither code nor error"), .internal, .internalErrorInvalidResponse),
            (.authorizationFailed(error: "access_denied", description: nil, subcode: "cancel"), .userCanceled, nil),
            (.authorizationFailed(error: "invalid_scope", description: nil, subcode: nil), .internal, .internalErrorInvalidScope),
        ] as [(InteractiveAuthorizationError, MSALError, MSALInternalError?)])
    func aBrowserSignInThatEndsWithoutACode(_ error: InteractiveAuthorizationError, expected: MSALError, internalCode: MSALInternalError?) {
        let mapped = StandardErrors.fromInteractive(error, correlationId: Self.correlation)
        #expect(mapped.domain == MSALErrorDomain && mapped.code == expected.rawValue)
        #expect(mapped.userInfo[MSALInternalErrorCodeKey] as? Int == internalCode?.rawValue)
        #expect((mapped.userInfo[MSALErrorDescriptionKey] as? String)?.isEmpty == false)
    }
}
