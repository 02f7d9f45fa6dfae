import Foundation

/// A second-factor code was sent.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthMFAVerificationRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The masked destination of the code.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var sentTo: String { challenge.info.sentTo }
    /// The channel the code went through.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var channel: MSALNativeAuthChannelType { challenge.info.channel }
    /// The expected length of the code.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var codeLength: Int { challenge.info.codeLength }
    let challenge: V2Challenge

    init(_ core: V2StateCore, _ challenge: V2Challenge) {
        self.challenge = challenge
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "mfaVerificationRequired (channel: \(channel), length: \(codeLength))" }

    /// Submits the code the user typed.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitChallenge(_ code: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.submit(code, on: core)
    }

    /// Submits the code the user typed and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitChallenge(_ code: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitChallenge(code) }
    }

    /// Asks the service to send a new code.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resendChallenge() async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.resend(on: core)
    }

    /// Asks the service to send a new code and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resendChallenge(delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.resendChallenge() }
    }
}

/// A code was sent to the strong-auth method being registered.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthStrongAuthVerificationRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The masked destination of the code.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var sentTo: String { challenge.info.sentTo }
    /// The channel the code went through.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var channel: MSALNativeAuthChannelType { challenge.info.channel }
    /// The expected length of the code.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var codeLength: Int { challenge.info.codeLength }
    let challenge: V2Challenge

    init(_ core: V2StateCore, _ challenge: V2Challenge) {
        self.challenge = challenge
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "strongAuthVerificationRequired (channel: \(channel), length: \(codeLength))" }

    /// Submits the code the user typed.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitChallenge(_ code: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.submit(code, on: core)
    }

    /// Submits the code the user typed and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitChallenge(_ code: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitChallenge(code) }
    }

    /// Asks the service to send a new code.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resendChallenge() async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.resend(on: core)
    }

    /// Asks the service to send a new code and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resendChallenge(delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.resendChallenge() }
    }
}

/// The user must register a strong-auth method (just-in-time registration): choose one of
/// `authMethods` and give the contact (an email address or phone number) codes should go to.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthStrongAuthRegistrationRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The kinds of method the user may register.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var authMethods: [MSALAuthMethod] { selection.authMethods }
    let selection: V2Selection

    init(_ core: V2StateCore, _ selection: V2Selection) {
        self.selection = selection
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "strongAuthRegistrationRequired (\(authMethods.count) methods)" }

    /// Registers `method` with `verificationContact`; the contact may be nil (or left out, the twin of
    /// `selectAuthMethod(_:delegate:)`) only when the method already has a destination (else `isInvalidInput`).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String? = nil) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        try await selection.select(method, contact: verificationContact, on: core)
    }

    /// Registers `method` with `verificationContact` and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String?, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.selectAuthMethod(method, verificationContact: verificationContact)
        }
    }

    /// Registers `method` without a contact (for a method that already has a destination) and
    /// reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, delegate: any MSALNativeAuthFlowDelegate) {
        selectAuthMethod(method, verificationContact: nil, delegate: delegate)
    }
}

/// A password reset (or an inline recovery) asks for the new password: `submitNewPassword`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthNewPasswordRequiredState: MSALNativeAuthState, @unchecked Sendable {
    let update: V2Verification

    init(_ core: V2StateCore, update: V2Verification) {
        self.update = update
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "newPasswordRequired" }
}

/// A sign-up asks for attributes the app did not give: `submitAttributes`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthAttributesRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The attributes the service asks for.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public let attributes: [MSALNativeAuthRequiredAttribute]
    let form: V2AttributeForm

    init(_ core: V2StateCore, attributes: [MSALNativeAuthRequiredAttribute], form: V2AttributeForm) {
        self.attributes = attributes
        self.form = form
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "attributesRequired (\(attributes.count) attributes)" }
}

/// A sign-up finished; the app signs the user in from here with `signIn(parameters:)`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthSignInAfterSignUpState: MSALNativeAuthState, @unchecked Sendable {
    let link: URL?

    init(_ core: V2StateCore, link: URL?) {
        self.link = link
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "signInAfterSignUp" }
}

/// A password reset finished; the app signs the user in from here with `signIn(parameters:)`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthSignInAfterResetPasswordState: MSALNativeAuthState, @unchecked Sendable {
    let link: URL?

    init(_ core: V2StateCore, link: URL?) {
        self.link = link
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "signInAfterResetPassword" }
}
