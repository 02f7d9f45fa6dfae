import Foundation

/// The base of every native auth V2 state. Mirrors MSAL's `MSALNativeAuthState`.
///
/// A state is an immutable snapshot of the flow (its continuation token and correlation id): each
/// continuation sends a request from it, and a failure that leaves the state usable (a wrong code
/// or password) lets the app call the same state again. Every continuation has a delegate form
/// and an `async` form returning `MSALNativeAuthFlowResult`; the delegate form runs the `async`
/// one and reports its outcome once, on the main actor.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public class MSALNativeAuthState: CustomStringConvertible, @unchecked Sendable {
    // `@unchecked` only because the class is not final (MSAL's hierarchy): every stored property
    // is a `let` of a Sendable type, in this class and its subclasses.

    let core: V2StateCore

    /// The flow this state belongs to.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var scenario: MSALNativeAuthFlowScenario { core.flow.scenario }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var description: String { "state" }

    init(_ core: V2StateCore) {
        self.core = core
    }

    /// The flow's correlation id, as the server last echoed it.
    var correlationId: UUID { core.continuation.correlationId }

    /// Runs the `async` form `step` and reports its outcome to `delegate`.
    func report(
        to delegate: any MSALNativeAuthFlowDelegate,
        _ step: @escaping @Sendable () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    ) {
        V2Delivery.run(delegate, scenario: scenario, step)
    }
}

/// What every V2 state continues with: the flow and the continuation of the answer that made the state.
struct V2StateCore: Sendable {
    let flow: V2Flow
    let continuation: Continuation
    /// When the service issued the continuation token (as the SDK's clock read it): a saved state's
    /// `issuedAt` (Sources/MSAL/V2/SavedState/SavedFlowStateV2.swift).
    let issuedAt: Date

    /// A core starting now on the flow's clock, or at `issuedAt` for a restored state.
    init(flow: V2Flow, continuation: Continuation, issuedAt: Date? = nil) {
        self.flow = flow
        self.continuation = continuation
        self.issuedAt = issuedAt ?? flow.controller.client.environment.clock.now()
    }

    /// Runs one step of the flow: `begin` starts a fresh machine, the controller sends what it asks for.
    func step(_ begin: (inout V2SignInMachine) -> V2SignInMachine.Action) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    {
        var machine = flow.machine()
        let first = begin(&machine)
        return try await flow.controller.finish(first, &machine, flow)
    }
}

/// A sent code: where it went and its length, from the `verify` or `activate` answer.
struct V2CodeInfo: Sendable {
    let sentTo: String
    let channel: MSALNativeAuthChannelType
    let codeLength: Int

    init(_ verification: V2Verification) {
        sentTo = verification.hint ?? ""
        channel = MSALNativeAuthChannelType(value: verification.type ?? "email")
        // MSAL's V1 default when the server gives none (docs/protocol.md#success-bodies).
        codeLength = verification.codeLength ?? 8
    }
}

/// The service sent a one-time code (first factor).
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthCodeRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The masked address the code went to.
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
    public override var description: String { "codeRequired (channel: \(channel), length: \(codeLength))" }

    /// Submits the code the user typed.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitCode(_ code: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.submit(code, on: core)
    }

    /// Submits the code the user typed and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitCode(_ code: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitCode(code) }
    }

    /// Asks the service to send a new code.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resendCode() async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.resend(on: core)
    }

    /// Asks the service to send a new code and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resendCode(delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.resendCode() }
    }
}

/// The service asks for the user's password.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthPasswordRequiredState: MSALNativeAuthState, @unchecked Sendable {
    let verification: V2Verification
    /// Sign-up: the password is the `password` attribute, sent to this form.
    let attributeForm: V2AttributeForm?

    init(_ core: V2StateCore, _ verification: V2Verification, attributeForm: V2AttributeForm? = nil) {
        self.verification = verification
        self.attributeForm = attributeForm
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "passwordRequired" }

    /// Submits the password.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitPassword(_ password: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        if let attributeForm {
            return try await core.step { $0.submitSignUpPassword(password, form: attributeForm, on: core.continuation) }
        }
        return try await core.step { $0.submitPassword(password, verification: verification, on: core.continuation) }
    }

    /// Submits the password and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitPassword(_ password: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitPassword(password) }
    }
}

/// The methods of a selection state. Like every V2 state it is a snapshot: each selection sends a
/// request with the state's token, however often the app selects on it, and the service decides
/// (MSAL has no local guard either: docs/decisions.md#native-auth-v2).
final class V2Selection: Sendable {
    let methods: [V2Method]
    let purpose: V2SignInMachine.Purpose
    let authMethods: [MSALAuthMethod]

    init(_ methods: [V2Method], _ purpose: V2SignInMachine.Purpose) {
        self.methods = methods
        self.purpose = purpose
        authMethods = methods.map {
            MSALAuthMethod(
                id: $0.id, challengeType: $0.type, channelTargetType: MSALNativeAuthChannelType(value: $0.type), loginHint: $0.hint)
        }
    }

    func select(_ method: MSALAuthMethod, contact: String?, on core: V2StateCore) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        let chosen = methods.first { $0.id == method.id }
        return try await core.step { $0.select(chosen, contact: contact, purpose: purpose, on: core.continuation) }
    }
}

/// The user must choose a method: several first factors, a second factor (always), several recovery
/// methods, or an existing account found by a sign-up.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthAuthMethodSelectionRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// Why the user is choosing.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public enum Purpose: Sendable {
        /// Several first factors (password, email code).
        /// - Warning: This API is experimental. It may change without notice; do not use it in production.
        case firstFactor
        /// A second factor; always a choice, even of one.
        /// - Warning: This API is experimental. It may change without notice; do not use it in production.
        case mfa
        /// A password reset's recovery methods.
        /// - Warning: This API is experimental. It may change without notice; do not use it in production.
        case recovery
        /// A sign-up found an existing account.
        /// - Warning: This API is experimental. It may change without notice; do not use it in production.
        case existingAccount
    }

    /// The methods the user may choose from, in the service's order.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var authMethods: [MSALAuthMethod] { selection.authMethods }
    /// Why the user is choosing.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public let purpose: Purpose
    let selection: V2Selection

    init(_ core: V2StateCore, _ selection: V2Selection) {
        self.selection = selection
        switch selection.purpose {
        case .mfa, .registration: purpose = .mfa
        case .recovery: purpose = .recovery
        case .existingAccount: purpose = .existingAccount
        case .firstFactor: purpose = .firstFactor
        }
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "authMethodSelectionRequired (\(purpose), \(authMethods.count) methods)" }

    /// Chooses `method` (one of `authMethods`); `verificationContact` is not used outside registration.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String? = nil) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        try await selection.select(method, contact: verificationContact, on: core)
    }

    /// Chooses `method` and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String?, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.selectAuthMethod(method, verificationContact: verificationContact)
        }
    }

    /// Chooses `method` and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, delegate: any MSALNativeAuthFlowDelegate) {
        selectAuthMethod(method, verificationContact: nil, delegate: delegate)
    }
}

/// Declared for source compatibility with older MSAL releases; this SDK reports second-factor
/// choices as `MSALNativeAuthAuthMethodSelectionRequiredState` and never produces this state.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthMFARequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The methods the user may choose from.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var authMethods: [MSALAuthMethod] { selection.authMethods }
    let selection: V2Selection

    init(_ core: V2StateCore, _ selection: V2Selection) {
        self.selection = selection
        super.init(core)
    }

    /// A short description of the state, without personal data.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public override var description: String { "mfaRequired" }

    /// Chooses `method`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String? = nil) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        try await selection.select(method, contact: verificationContact, on: core)
    }

    /// Chooses `method` and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String?, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.selectAuthMethod(method, verificationContact: verificationContact)
        }
    }

    /// Chooses `method` and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func selectAuthMethod(_ method: MSALAuthMethod, delegate: any MSALNativeAuthFlowDelegate) {
        selectAuthMethod(method, verificationContact: nil, delegate: delegate)
    }
}

/// A sent code and the two continuations on it, shared by the code, MFA and registration code states.
struct V2Challenge: Sendable {
    let verification: V2Verification
    let purpose: V2SignInMachine.Purpose
    let info: V2CodeInfo

    init(_ verification: V2Verification, _ purpose: V2SignInMachine.Purpose) {
        self.verification = verification
        self.purpose = purpose
        info = V2CodeInfo(verification)
    }

    func submit(_ code: String, on core: V2StateCore) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await core.step { $0.submitCode(code, verification: verification, purpose: purpose, on: core.continuation) }
    }

    func resend(on core: V2StateCore) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await core.step { $0.resend(verification, purpose: purpose, on: core.continuation) }
    }
}
