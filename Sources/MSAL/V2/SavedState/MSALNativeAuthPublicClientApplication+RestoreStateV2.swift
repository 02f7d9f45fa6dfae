import Foundation

extension MSALNativeAuthPublicClientApplication {
    /// Restores a native auth V2 state saved with `serialized()`, in this process or another one:
    /// the result carries a state with the same continuation token, correlation id, scenario,
    /// username, scopes, claims, methods, links and (in a sign-up) attributes, which takes the same
    /// calls as the original (docs/saved-states.md#version-2-native-auth-v2).
    ///
    /// Nothing is sent to the service. Throws `RestoreStateError`: `isWrongKind` for a V1 state
    /// (restore it with `restoreState(serialized:)`), `isMalformed` also when a saved link is not on
    /// the authority's scheme, host and port or a kind does not fit its scenario, and the V1 checks
    /// (client id, authority, 10 minutes).
    ///
    /// ```swift
    /// // given: app: MSALNativeAuthPublicClientApplication
    /// // given: saved: Data
    /// if case .codeRequired(let state) = try app.restoreStateV2(serialized: saved) {
    ///     _ = try await state.submitCode("12345678")
    /// }
    /// ```
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func restoreStateV2(serialized data: Data) throws(RestoreStateError) -> MSALNativeAuthFlowResult {
        try restoreV2(data).1
    }

    /// Reads a version 2 document, or throws why not (nothing is checked against the application yet).
    func decodeV2(_ data: Data) throws(RestoreStateError) -> SavedFlowStateV2 {
        do throws(RestoreFailure) { return try SavedFlowStateV2.decode(data, links: signInController.client.v2Links) } catch {
            let correlationId = (try? SavedFlowState.decode(data))?.correlationId ?? environment.uuid()
            environment.logger.warning("Saved V2 state refused: \(error.kindName)")
            throw RestoreStateError(error, correlationId: correlationId)
        }
    }

    /// The saved document and the result it restores to, after the application's checks.
    func restoreV2(_ data: Data) throws(RestoreStateError) -> (SavedFlowStateV2, MSALNativeAuthFlowResult) {
        let saved = try decodeV2(data)
        do throws(RestoreFailure) {
            try checkApplication(
                clientId: saved.clientId, authority: saved.authority, issuedAt: saved.issuedAt, now: environment.clock.now())
        } catch {
            environment.logger.warning("Saved \(saved.kind.rawValue) state refused: \(error.kindName)")
            throw RestoreStateError(error, correlationId: saved.correlationId)
        }
        let controller = V2FlowController(client: signInController.client)
        let flow = V2Flow(
            controller: controller, scenario: saved.scenario, username: saved.username, scopes: saved.scopes, claims: saved.claims,
            attributes: saved.signUp?.pendingAttributes ?? [:])
        let core = V2StateCore(
            flow: flow, continuation: Continuation(saved.continuationToken, saved.correlationId), issuedAt: saved.issuedAt)
        let known = flow.machine().knownAttributes
        let result: MSALNativeAuthFlowResult
        switch (saved.kind, saved.step) {
        case (.v2CodeRequired, .verification(let verification)):
            result = .codeRequired(MSALNativeAuthCodeRequiredState(core, V2Challenge(verification, saved.purpose)))
        case (.v2PasswordRequired, .verification(let verification)):
            result = .passwordRequired(MSALNativeAuthPasswordRequiredState(core, verification))
        case (.v2PasswordRequired, .signUpPassword(let submit)):
            result = .passwordRequired(MSALNativeAuthPasswordRequiredState(core, signUp: saved.form(submit: submit, known: known)))
        case (.v2MFAVerificationRequired, .verification(let verification)):
            result = .mfaVerificationRequired(MSALNativeAuthMFAVerificationRequiredState(core, V2Challenge(verification, saved.purpose)))
        case (.v2StrongAuthVerificationRequired, .verification(let verification)):
            result = .strongAuthVerificationRequired(
                MSALNativeAuthStrongAuthVerificationRequiredState(core, V2Challenge(verification, saved.purpose)))
        case (.v2AuthMethodSelectionRequired, .selection(let methods)):
            result = .authMethodSelectionRequired(MSALNativeAuthAuthMethodSelectionRequiredState(core, V2Selection(methods, saved.purpose)))
        case (.v2StrongAuthRegistrationRequired, .selection(let methods)):
            result = .strongAuthRegistrationRequired(
                MSALNativeAuthStrongAuthRegistrationRequiredState(core, V2Selection(methods, saved.purpose)))
        case (.v2NewPasswordRequired, .verification(let update)):
            result = .newPasswordRequired(MSALNativeAuthNewPasswordRequiredState(core, update: update))
        case (.v2AttributesRequired, .attributes(let descriptors, let submit)):
            result = .attributesRequired(
                MSALNativeAuthAttributesRequiredState(core, descriptors, form: saved.form(submit: submit, known: known)))
        case (.v2SignInAfterSignUp, .signInAfter(let link)):
            result = .signInAfterSignUp(MSALNativeAuthSignInAfterSignUpState(core, link: link))
        case (.v2SignInAfterResetPassword, .signInAfter(let link)):
            result = .signInAfterResetPassword(MSALNativeAuthSignInAfterResetPasswordState(core, link: link))
        case (.v2CodeRequired, _), (.v2PasswordRequired, _), (.v2MFAVerificationRequired, _), (.v2StrongAuthVerificationRequired, _),
            (.v2AuthMethodSelectionRequired, _), (.v2StrongAuthRegistrationRequired, _), (.v2NewPasswordRequired, _),
            (.v2AttributesRequired, _), (.v2SignInAfterSignUp, _), (.v2SignInAfterResetPassword, _):
            // SavedFlowStateV2.decode makes the step from the kind.
            preconditionFailure("a saved \(saved.kind.rawValue) state with another kind's step")
        }
        environment.logger.info("Restored a \(saved.kind.rawValue) state, correlation \(saved.correlationId.uuidString)")
        return (saved, result)
    }
}

extension MSALNativeAuthFlowResult {
    /// The state the result carries (nil for `completed`).
    var restoredState: MSALNativeAuthState? {
        switch self {
        case .completed: nil
        case .codeRequired(let state as MSALNativeAuthState), .passwordRequired(let state as MSALNativeAuthState),
            .newPasswordRequired(let state as MSALNativeAuthState), .attributesRequired(let state as MSALNativeAuthState),
            .authMethodSelectionRequired(let state as MSALNativeAuthState), .mfaVerificationRequired(let state as MSALNativeAuthState),
            .strongAuthRegistrationRequired(let state as MSALNativeAuthState),
            .strongAuthVerificationRequired(let state as MSALNativeAuthState), .signInAfterSignUp(let state as MSALNativeAuthState),
            .signInAfterResetPassword(let state as MSALNativeAuthState):
            state
        }
    }
}

// Each V2 state that continues saves itself through SavedFlowStateV2.swift
// (MSALNativeAuthMFARequiredState, never produced, does not).

extension MSALNativeAuthCodeRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data {
        SavedFlowStateV2(.v2CodeRequired, core, purpose: challenge.purpose, .verification(challenge.verification)).encoded()
    }
}

extension MSALNativeAuthPasswordRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    /// A sign-up's password state saves the attributes it sends along, never a password.
    public func serialized() -> Data {
        guard let attributeForm else {
            return SavedFlowStateV2(.v2PasswordRequired, core, purpose: .firstFactor, .verification(verification)).encoded()
        }
        return SavedFlowStateV2(
            .v2PasswordRequired, core, purpose: .firstFactor, .signUpPassword(submit: attributeForm.submit), prefill: attributeForm
        ).encoded()
    }
}

extension MSALNativeAuthAuthMethodSelectionRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    /// A state already used to select a method saves as it was: the restored state may select again.
    public func serialized() -> Data {
        SavedFlowStateV2(.v2AuthMethodSelectionRequired, core, purpose: selection.purpose, .selection(selection.methods)).encoded()
    }
}

extension MSALNativeAuthMFAVerificationRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data {
        SavedFlowStateV2(.v2MFAVerificationRequired, core, purpose: challenge.purpose, .verification(challenge.verification)).encoded()
    }
}

extension MSALNativeAuthStrongAuthRegistrationRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    /// A state already used to register a method saves as it was: the restored state may register again.
    public func serialized() -> Data {
        SavedFlowStateV2(.v2StrongAuthRegistrationRequired, core, purpose: selection.purpose, .selection(selection.methods)).encoded()
    }
}

extension MSALNativeAuthStrongAuthVerificationRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data {
        SavedFlowStateV2(.v2StrongAuthVerificationRequired, core, purpose: challenge.purpose, .verification(challenge.verification))
            .encoded()
    }
}

extension MSALNativeAuthNewPasswordRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data {
        SavedFlowStateV2(.v2NewPasswordRequired, core, purpose: .recovery, .verification(update)).encoded()
    }
}

extension MSALNativeAuthAttributesRequiredState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md):
    /// the attributes asked for and the app's values the sign-up still offers.
    public func serialized() -> Data {
        SavedFlowStateV2(
            .v2AttributesRequired, core, purpose: .firstFactor, .attributes(attributes.map(\.descriptor), submit: form.submit),
            prefill: form
        ).encoded()
    }
}

extension MSALNativeAuthSignInAfterSignUpState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data {
        SavedFlowStateV2(.v2SignInAfterSignUp, core, purpose: .firstFactor, .signInAfter(link)).encoded()
    }
}

extension MSALNativeAuthSignInAfterResetPasswordState: MSALNativeAuthSerializableState {
    /// The state as a version 2 JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data {
        SavedFlowStateV2(.v2SignInAfterResetPassword, core, purpose: .firstFactor, .signInAfter(link)).encoded()
    }
}
