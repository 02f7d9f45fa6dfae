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

    // MARK: The table recorded from V2 traffic (docs/error-mapping-v2.md)

    static let everyStep: [V2FlowMachine.Step] = [
        .entry, .start, .selectMethod(.firstFactor), .selectMethod(.mfa), .selectMethod(.recovery), .selectMethod(.registration),
        .submitCode(.firstFactor), .submitCode(.mfa), .submitCode(.recovery), .submitCode(.registration), .submitPassword,
        .resend(.firstFactor), .submitAttributes, .submitNewPassword, .recover, .signInAfter,
    ]

    /// A refusal with no flag of its own: general, and none of the flags an app branches on.
    func expectGeneralOnly(_ error: V2ServerError, in step: V2FlowMachine.Step, _ comment: Comment) {
        let flow = flowError(error, in: step)
        #expect(flow.isGeneralError && V2ErrorMapping.kind(of: error, in: step) == .generalError, comment)
        #expect(!flow.isInvalidCode && !flow.isInvalidPassword && !flow.isUserNotFound && !flow.isInvalidUsername, comment)
        #expect(!flow.isInvalidInput && !flow.isBrowserRequired, comment)
    }

    /// An invalid continuation token (`invalidRequest`/`invalidContinuationToken` AADSTS10040144) and an
    /// expired one (`expiredToken`/`expiredContinuationToken` AADSTS552001) are general errors at every step.
    @Test func invalidAndExpiredTokensAsTheServiceSendsThemAreGeneralEverywhere() throws {
        let invalid = try error("invalidRequest", "AADSTS10040144: The continuation_token is invalid.", inner: "invalidContinuationToken")
        let expired = try error("expiredToken", "AADSTS552001: The continuation_token has expired.", inner: "expiredContinuationToken")
        #expect(invalid.errorCodes == [10_040_144] && expired.errorCodes == [552_001])
        for step in Self.everyStep {
            expectGeneralOnly(invalid, in: step, "invalid at \(step)")
            expectGeneralOnly(expired, in: step, "expired at \(step)")
        }
    }

    /// The older forms (the emulator's before, and the service's missing parameter) still read as general.
    @Test func olderTokenFormsStillReadAsGeneral() throws {
        let forms = [
            try error("invalidGrant", "AADSTS552003: The continuationToken has expired.", inner: "expiredToken"),
            try error(
                "invalidRequest", "AADSTS90100: continuationToken parameter is empty or not valid.", inner: "invalidContinuationToken"),
            // The numbers alone, under an outer code that would otherwise be a wrong code or a bad username.
            try error("invalidGrant", "AADSTS552003: Expired."), try error("invalidGrant", "AADSTS552001: Expired."),
            try error("invalidGrant", "AADSTS10040144: Invalid."), try error("expiredToken", "The token has expired."),
            // The inner codes alone, without a number.
            try error("invalidGrant", "The continuationToken has expired.", inner: "expiredToken"),
            try error("invalidGrant", "Expired.", inner: "expiredContinuationToken"),
        ]
        for form in forms {
            for step in Self.everyStep { expectGeneralOnly(form, in: step, "\(form.code) \(form.errorCodes) at \(step)") }
        }
    }

    /// At a verify step an `invalidGrant` with no inner code, or with `invalidContinuationToken`, is a wrong
    /// code (a wrong challenge for MFA and registration, a wrong password after a password), as msal-browser
    /// and MSAL read it, and not a general error.
    @Test func aVerifyStepsInvalidGrantIsAWrongSecret() throws {
        for inner in [nil, "invalidContinuationToken"] as [String?] {
            let wrong = try error("invalidGrant", "", inner: inner)
            let code = flowError(wrong, in: .submitCode(.firstFactor))
            #expect(code.isInvalidCode && !code.isGeneralError, "\(inner ?? "none")")
            let mfa = flowError(wrong, in: .submitCode(.mfa))
            #expect(mfa.isInvalidChallenge && mfa.isInvalidCode && !mfa.isGeneralError)
            #expect(flowError(wrong, in: .submitCode(.registration)).isInvalidChallenge)
            let password = flowError(wrong, in: .submitPassword)
            #expect(password.isInvalidPassword && !password.isGeneralError)
            // Not a verify step: general.
            expectGeneralOnly(wrong, in: .selectMethod(.firstFactor), "\(inner ?? "none") at a selection")
        }
        // Too many attempts ends the flow: not a wrong code.
        expectGeneralOnly(
            try error("invalidGrant", "AADSTS50053: Too many attempts.", inner: "tooManyAttempts"), in: .submitCode(.firstFactor), "50053")
        expectGeneralOnly(try error("invalidGrant", "AADSTS50053: Too many attempts."), in: .submitCode(.firstFactor), "50053 alone")
        expectGeneralOnly(
            try error("invalidGrant", "Too many attempts.", inner: "tooManyAttempts"), in: .submitCode(.firstFactor), "inner alone")
        // Another outer code at the verify step is no wrong code.
        expectGeneralOnly(try error("invalidRequest", ""), in: .submitCode(.firstFactor), "bare invalidRequest")
        expectGeneralOnly(
            try error("invalidRequest", "The requested credential is not available for this user."), in: .submitCode(.firstFactor),
            "unmatched")
    }

    @Test func aWrongCodeAsTheServiceSendsIt() throws {
        let wrong = flowError(
            try error("invalidGrant", "AADSTS50181: Unable to validate the otp.", inner: "invalidOneTimeCode"),
            in: .submitCode(.firstFactor))
        #expect(wrong.isInvalidCode && !wrong.isGeneralError && !wrong.isInvalidInput)
    }

    /// `passwordTooWeak` (AADSTS120002) is a wrong new password; msal-browser's retired synthetic
    /// `passwordInvalid` is not.
    @Test func aWeakNewPasswordButNotTheSyntheticPasswordInvalid() throws {
        let weak = flowError(
            try error("invalidRequest", "AADSTS120002: New password doesn't meet complexity requirements.", inner: "passwordTooWeak"),
            in: .submitNewPassword)
        #expect(weak.isInvalidPassword && !weak.isGeneralError)
        expectGeneralOnly(try error("invalidRequest", "", inner: "passwordInvalid"), in: .submitNewPassword, "passwordInvalid")
    }

    /// AADSTS50034 in the message of a bare `invalidRequest` (reset start) is a user not found; another number is not.
    @Test func userNotFoundByTheNumberInTheMessage() throws {
        let notFound = flowError(try error("invalidRequest", "AADSTS50034: The user account does not exist in the tenant."), in: .start)
        #expect(notFound.isUserNotFound && !notFound.isGeneralError)
        expectGeneralOnly(try error("invalidRequest", "AADSTS999999: some other failure."), in: .start, "999999")
    }

    /// A malformed entry request (`invalid_request`, error codes `[901001]`) is general: 901001 alone is a
    /// malformed contact only where a contact is sent.
    @Test func aMalformedEntryRequestIsGeneral() throws {
        let malformed = V2ServerError(code: "invalid_request", message: "AADSTS901001: Invalid request.", errorCodes: [901001])
        for step in [.entry, .start, .selectMethod(.firstFactor), .submitCode(.firstFactor)] as [V2FlowMachine.Step] {
            expectGeneralOnly(malformed, in: step, "901001 at \(step)")
        }
        #expect(flowError(malformed, in: .selectMethod(.registration)).isInvalidInput)
        let contact = try error("invalidRequest", "AADSTS901001: Bad contact.", inner: "invalidVerificationContact")
        #expect(flowError(contact, in: .selectMethod(.registration)).isInvalidInput)
    }

    @Test func redirectToWebIsBrowserRequired() throws {
        let body = try JSONSerialization.data(withJSONObject: V2Fixture.halError("redirect_to_web", "Use the browser."))
        guard case .browserRequired = decoder.decode(status: 400, body: body, as: .interaction) else {
            throw UnexpectedOutcome("redirect_to_web is not browserRequired")
        }
        let failure = V2FlowMachine.failure(.answer(.browserRequired(message: nil)), in: .start, UUID())
        let flow = MSALNativeAuthFlowError(type: failure.kind, failure.details)
        #expect(flow.isBrowserRequired && !flow.isGeneralError)
    }
}
