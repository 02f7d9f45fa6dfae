import Foundation

/// The base of MSAL's flow states: a continuation token and the flow's correlation id, both
/// internal. Mirrors MSAL's `MSALNativeAuthBaseState`; the MFA and registration states derive from it.
public class MSALNativeAuthBaseState: @unchecked Sendable {
    // `@unchecked` only because the class is not final (MSAL's hierarchy): every stored property is
    // a `let` of a Sendable type, and the subclasses, all in this module, add only `let`s.
    package let continuationToken: String
    package let correlationId: UUID
    /// Whether the token may still be used; shared by the states that hold the same token (the
    /// one a failed delegate call hands back in MSAL's type is the same state in another shape).
    package let lifecycle: StateLifecycle

    package init(continuationToken: String, correlationId: UUID, lifecycle: StateLifecycle) {
        self.continuationToken = continuationToken
        self.correlationId = correlationId
        self.lifecycle = lifecycle
    }

    /// This state when it can still be used after a failure, else nil.
    package var ifUsable: Self? { lifecycle.hasEnded ? nil : self }
}

/// What a second-factor state needs to finish the sign-in it interrupted: the controller, the
/// scopes and claims the sign-in asked for, and the methods the service offered.
package struct SignInContinuationContext: Sendable {
    package let controller: SignInController
    package let scopes: [String]
    package let claims: String?
    package var authMethods: [MSALAuthMethod] = []
}

/// The base of the MFA states. Mirrors MSAL's `MFABaseState` (no public members).
public class MFABaseState: MSALNativeAuthBaseState, @unchecked Sendable {
    package let context: SignInContinuationContext

    package init(
        context: SignInContinuationContext, continuationToken: String, correlationId: UUID, lifecycle: StateLifecycle? = nil
    ) {
        self.context = context
        super.init(
            continuationToken: continuationToken, correlationId: correlationId,
            lifecycle: lifecycle ?? StateLifecycle(context.controller.client))
    }

    /// The methods the service offered when the sign-in asked for a second factor. A Linux
    /// addition (MSAL hands them to the delegate only): a state restored from
    /// `serialized()` in another process still knows them.
    public var authMethods: [MSALAuthMethod] { context.authMethods }

    /// Asks the server to send a code to `authMethod`.
    public func requestChallenge(authMethod: MSALAuthMethod) async throws(MFARequestChallengeError) -> CodeRequiredResult<MFARequiredState>
    {
        try await context.controller.requestMFAChallenge(authMethod, on: self)
    }

    /// Asks the server to send a code to `authMethod` and reports to `delegate` on the main actor.
    /// After a failure `newState` accepts another request (MSAL hands an `MFARequiredState` here).
    public func requestChallenge(authMethod: MSALAuthMethod, delegate: any MFARequestChallengeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(MFARequestChallengeError) {
                let sent = try await requestChallenge(authMethod: authMethod)
                delegate.onMFARequestChallengeVerificationRequired(
                    newState: sent.newState, sentTo: sent.sentTo, channelTargetType: sent.channelTargetType, codeLength: sent.codeLength)
            } catch {
                delegate.onMFARequestChallengeError(error: error, newState: retryState)
            }
        }
    }

    /// The state a failed request hands back, in MSAL's type.
    private var retryState: MFARequiredState? {
        guard !lifecycle.hasEnded else { return nil }
        return self as? MFARequiredState
            ?? MFARequiredState(context: context, continuationToken: continuationToken, correlationId: correlationId, lifecycle: lifecycle)
    }
}

/// The sign-in needs a second factor and the user has not chosen a method yet. Mirrors MSAL's
/// `AwaitingMFAState`: call `requestChallenge(authMethod:)` with one of the methods the sign-in
/// step returned; a code is sent there.
public final class AwaitingMFAState: MFABaseState, @unchecked Sendable {}

/// A second-factor code was sent. Mirrors MSAL's `MFARequiredState`: submit the code with
/// `submitChallenge(challenge:)`, or send a code again (to the same or another method) with
/// `requestChallenge(authMethod:)`.
public final class MFARequiredState: MFABaseState, @unchecked Sendable {
    /// Submits the second-factor code. A wrong code throws `isInvalidChallenge` and this state
    /// accepts another.
    public func submitChallenge(challenge: String) async throws(MFASubmitChallengeError) -> MSALNativeAuthUserAccountResult {
        try await context.controller.submitMFAChallenge(challenge, on: self)
    }

    /// Submits the second-factor code and reports to `delegate` on the main actor.
    public func submitChallenge(challenge: String, delegate: any MFASubmitChallengeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(MFASubmitChallengeError) {
                delegate.onSignInCompleted(result: try await submitChallenge(challenge: challenge))
            } catch {
                delegate.onMFASubmitChallengeError(error: error, newState: ifUsable)
            }
        }
    }
}

/// The base of the strong-auth registration states. Mirrors MSAL's `RegisterStrongAuthBaseState`.
public class RegisterStrongAuthBaseState: MSALNativeAuthBaseState, @unchecked Sendable {
    package let context: SignInContinuationContext

    package init(
        context: SignInContinuationContext, continuationToken: String, correlationId: UUID, lifecycle: StateLifecycle? = nil
    ) {
        self.context = context
        super.init(
            continuationToken: continuationToken, correlationId: correlationId,
            lifecycle: lifecycle ?? StateLifecycle(context.controller.client))
    }

    /// The methods the service offered when the sign-in asked for a second factor. A Linux
    /// addition (MSAL hands them to the delegate only): a state restored from
    /// `serialized()` in another process still knows them.
    public var authMethods: [MSALAuthMethod] { context.authMethods }

    /// Sends a verification code to the contact the user typed for `parameters.authMethod`, or, when
    /// the service already knows the contact as verified, registers it and signs the user in.
    public func challengeAuthMethod(parameters: MSALNativeAuthChallengeAuthMethodParameters) async throws(RegisterStrongAuthChallengeError)
        -> RegisterStrongAuthChallengeResult
    {
        try await context.controller.challengeAuthMethod(parameters, on: self)
    }

    /// Sends a verification code to the contact and reports to `delegate` on the main actor. After a
    /// failure `newState` accepts another contact.
    public func challengeAuthMethod(
        parameters: MSALNativeAuthChallengeAuthMethodParameters, delegate: any RegisterStrongAuthChallengeDelegate
    ) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(RegisterStrongAuthChallengeError) {
                switch try await challengeAuthMethod(parameters: parameters) {
                case .verificationRequired(let result): delegate.onRegisterStrongAuthVerificationRequired(result: result)
                case .completed(let result): delegate.onSignInCompleted(result: result)
                }
            } catch {
                // MSAL hands no state for an empty contact typed on the code state (docs/error-mapping.md#registration-states);
                // that state itself still takes the code.
                let emptyContact = error.isInvalidInput && error.serverError == nil
                delegate.onRegisterStrongAuthChallengeError(
                    error: error, newState: emptyContact && !(self is RegisterStrongAuthState) ? nil : retryState)
            }
        }
    }

    /// The state a failed challenge hands back, in MSAL's type.
    private var retryState: RegisterStrongAuthState? {
        guard !lifecycle.hasEnded else { return nil }
        return self as? RegisterStrongAuthState
            ?? RegisterStrongAuthState(
                context: context, continuationToken: continuationToken, correlationId: correlationId, lifecycle: lifecycle)
    }
}

/// The user must register a strong-auth method before the sign-in can finish. Mirrors MSAL's
/// `RegisterStrongAuthState`: ask the user for a contact for one of the offered methods and call
/// `challengeAuthMethod(parameters:)`.
public final class RegisterStrongAuthState: RegisterStrongAuthBaseState, @unchecked Sendable {}

/// A verification code was sent to the contact being registered. Mirrors MSAL's
/// `RegisterStrongAuthVerificationRequiredState`: submit it with `submitChallenge(challenge:)`, or
/// send a new code (or use another contact) with `challengeAuthMethod(parameters:)`.
public final class RegisterStrongAuthVerificationRequiredState: RegisterStrongAuthBaseState, @unchecked Sendable {
    /// Submits the verification code; on success the method is registered and the user signed in.
    public func submitChallenge(challenge: String) async throws(RegisterStrongAuthSubmitChallengeError)
        -> MSALNativeAuthUserAccountResult
    {
        try await context.controller.submitRegistrationChallenge(challenge, on: self)
    }

    /// Submits the verification code and reports to `delegate` on the main actor.
    public func submitChallenge(challenge: String, delegate: any RegisterStrongAuthSubmitChallengeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(RegisterStrongAuthSubmitChallengeError) {
                delegate.onSignInCompleted(result: try await submitChallenge(challenge: challenge))
            } catch {
                delegate.onRegisterStrongAuthSubmitChallengeError(error: error, newState: ifUsable)
            }
        }
    }
}
