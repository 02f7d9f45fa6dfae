import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The V2 error table by AADSTS number alone (no inner code: the service's wording may differ from
/// the emulator's), and `isGeneralError` set beside a specific flag where MSAL's V2 mapping reports
/// the same answer as a general error (docs/compatibility.md#native-auth-v2).
@Suite struct V2ErrorMappingTests {
    let log = LogCapture()
    var decoder: V2AnswerDecoder { V2AnswerDecoder(links: V2Links(authority: V2Fixture.authority), logger: log.config) }

    func error(_ code: String, _ message: String, inner: String? = nil) throws -> V2ServerError {
        let body = try JSONSerialization.data(withJSONObject: V2Fixture.halError(code, message, inner: inner))
        guard case .error(let error) = decoder.decode(status: 400, body: body, as: .interaction) else {
            throw UnexpectedOutcome("expected an error")
        }
        return error
    }

    func flowError(_ error: V2ServerError, in step: V2FlowMachine.Step) -> MSALNativeAuthFlowError {
        let kind = V2ErrorMapping.kind(of: error, in: step)
        return MSALNativeAuthFlowError(type: kind, V2ErrorMapping.details(of: error, kind: kind, UUID()))
    }

    @Test(
        arguments: [
            (50034, .start, .userNotFound),
            (50181, .submitCode(.firstFactor), .invalidCode),
            (50181, .submitCode(.mfa), .invalidChallenge),
            (50126, .submitPassword, .invalidPassword),
            (120002, .submitNewPassword, .invalidPassword),
            (1_003_037, .submitAttributes, .userAlreadyExists),
            (1_002_027, .submitAttributes, .invalidAttributes),
            (500222, .start, .userDoesNotHavePassword),
            (901001, .selectMethod(.registration), .invalidInput),
            (550024, .selectMethod(.mfa), .authMethodBlocked),
            (550024, .selectMethod(.registration), .verificationContactBlocked),
            (90100, .start, .invalidUsername),
        ] as [(Int, V2FlowMachine.Step, NativeAuthErrorKind)])
    func theNumberAloneMapsLikeTheInnerCode(aadsts: Int, step: V2FlowMachine.Step, kind: NativeAuthErrorKind) throws {
        for code in ["invalidRequest", "invalidGrant", "accessDenied"] {
            let error = try error(code, "AADSTS\(aadsts): The service's own wording.")
            #expect(error.innerCode == nil && error.errorCodes == [aadsts])
            #expect(V2ErrorMapping.kind(of: error, in: step) == kind, "AADSTS\(aadsts) with \(code)")
        }
    }

    @Test func aNumberInTheWrongStepOrAnUnknownOneIsGeneral() throws {
        #expect(V2ErrorMapping.kind(of: try error("invalidRequest", "AADSTS90100: token."), in: .submitPassword) == .generalError)
        #expect(V2ErrorMapping.kind(of: try error("invalidRequest", "AADSTS99999: new."), in: .start) == .generalError)
    }

    /// An invalid email at the start, a password-policy refusal at sign-up and the other refusals
    /// MSAL's mapping cannot name keep their flag and are general errors too.
    @Test func aFlagMSALWouldNotSetComesWithIsGeneralError() throws {
        let username = flowError(try error("invalidRequest", "AADSTS90100: username parameter is empty or not valid."), in: .start)
        #expect(username.isInvalidUsername && username.isGeneralError)
        let policy = flowError(
            try error("invalidRequest", "AADSTS1002027: Password too simple.", inner: "passwordPolicyViolation"), in: .submitAttributes)
        #expect(policy.isInvalidPassword && policy.isGeneralError)
        let exists = flowError(try error("invalidRequest", "AADSTS1003037: Exists.", inner: "userAlreadyExists"), in: .submitAttributes)
        #expect(exists.isUserAlreadyExists && exists.isGeneralError)
        let blocked = flowError(try error("accessDenied", "AADSTS550024: Blocked.", inner: "providerBlockedByRep"), in: .selectMethod(.mfa))
        #expect(blocked.isAuthMethodBlocked && blocked.isGeneralError)
    }

    /// Where MSAL sets the same flag, `isGeneralError` stays false.
    @Test func aFlagMSALSetsComesAlone() throws {
        let notFound = flowError(try error("invalidRequest", "AADSTS50034: No user.", inner: "userNotFound"), in: .start)
        #expect(notFound.isUserNotFound && !notFound.isGeneralError)
        let code = flowError(try error("invalidGrant", "AADSTS50181: Wrong.", inner: "invalidOneTimeCode"), in: .submitCode(.firstFactor))
        #expect(code.isInvalidCode && !code.isGeneralError)
        let password = flowError(
            try error("invalidGrant", "AADSTS50126: Wrong.", inner: "invalidUserNameOrPassword"), in: .submitPassword)
        #expect(password.isInvalidPassword && !password.isGeneralError)
        let weak = flowError(try error("invalidRequest", "AADSTS120002: Weak.", inner: "passwordTooWeak"), in: .submitNewPassword)
        #expect(weak.isInvalidPassword && !weak.isGeneralError)
        let attributes = flowError(
            try error("invalidRequest", "AADSTS1002027: Refused.", inner: "attributeValidationError"), in: .submitAttributes)
        #expect(attributes.isInvalidAttributes && !attributes.isGeneralError)
    }
}
