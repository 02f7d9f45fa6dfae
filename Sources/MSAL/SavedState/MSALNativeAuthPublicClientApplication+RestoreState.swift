import Foundation

extension MSALNativeAuthPublicClientApplication {
    /// Restores a flow state saved with `serialized()`, in this process or another one, to continue
    /// the flow: the restored state has the same continuation token, correlation id, username and
    /// (for a sign-in) scopes and claims, and takes the same calls, through the delegate and the
    /// `async` forms alike. A Linux addition (docs/saved-states.md).
    ///
    /// Nothing is sent to the service. Throws `RestoreStateError` for bytes that are not a saved
    /// state, a newer format version, a state of another client id or authority, or one whose
    /// continuation token is older than the service keeps it (10 minutes); `isWrongKind` for a
    /// native auth V2 state (version 2), which `restoreStateV2(serialized:)` restores.
    ///
    /// ```swift
    /// // given: app: MSALNativeAuthPublicClientApplication
    /// let saved: Data
    /// switch try await app.signIn(parameters: MSALNativeAuthSignInParameters(username: "ada@contoso.com")) {
    /// case .codeRequired(let state, _, _, _): saved = state.serialized()  // keep it as a secret
    /// default: return
    /// }
    /// // Later, perhaps in another process:
    /// let state = try app.restoreState(serialized: saved, as: SignInCodeRequiredState.self)
    /// _ = try await state.submitCode(code: "12345678")
    /// ```
    public func restoreState(serialized data: Data) throws(RestoreStateError) -> MSALNativeAuthFlowState {
        if SavedStateEnvelope.version(of: data) == SavedFlowStateV2.version {
            let saved = try decodeV2(data)
            let failure = RestoreFailure.wrongKind(
                "the saved state is a native auth V2 \(saved.kind.rawValue) state; restore it with restoreStateV2(serialized:)")
            environment.logger.warning("Saved \(saved.kind.rawValue) state refused: \(failure.kindName)")
            throw RestoreStateError(failure, correlationId: saved.correlationId)
        }
        let saved: SavedFlowState
        do throws(RestoreFailure) { saved = try SavedFlowState.decode(data) } catch {
            environment.logger.warning("Saved state refused: \(error.kindName)")
            throw RestoreStateError(error, correlationId: environment.uuid())
        }
        do throws(RestoreFailure) { try check(saved, now: environment.clock.now()) } catch {
            environment.logger.warning("Saved \(saved.kind.rawValue) state refused: \(error.kindName)")
            throw RestoreStateError(error, correlationId: saved.correlationId)
        }
        let flow = restore(saved)
        environment.logger.info("Restored a \(flow.kind) state, correlation \(saved.correlationId.uuidString)")
        return flow
    }

    /// Restores a saved flow state of a known class; `isWrongKind` when the bytes hold another kind.
    /// A native auth V2 state (an `MSALNativeAuthState` subclass) is restored through `restoreStateV2(serialized:)`.
    public func restoreState<State: MSALNativeAuthSerializableState>(serialized data: Data, as type: State.Type)
        throws(RestoreStateError) -> State
    {
        if SavedStateEnvelope.version(of: data) == SavedFlowStateV2.version {
            let (saved, result) = try restoreV2(data)
            guard let state = result.restoredState as? State else {
                let failure = RestoreFailure.wrongKind("the saved state is a \(saved.kind.rawValue) state, not \(String(describing: type))")
                throw RestoreStateError(failure, correlationId: saved.correlationId)
            }
            return state
        }
        let flow = try restoreState(serialized: data)
        guard let state = flow.state as? State else {
            let failure = RestoreFailure.wrongKind("the saved state is a \(flow.kind) state, not \(String(describing: type))")
            throw RestoreStateError(failure, correlationId: SavedFlowState(flow).correlationId)
        }
        return state
    }

    private func check(_ saved: SavedFlowState, now: Date) throws(RestoreFailure) {
        try checkApplication(clientId: saved.clientId, authority: saved.authority, issuedAt: saved.issuedAt, now: now)
    }

    /// The checks every saved state passes, V1 or V2: this application's client id and authority, and its age.
    func checkApplication(clientId: String, authority: String, issuedAt: Date, now: Date) throws(RestoreFailure) {
        guard clientId == environment.clientId else {
            throw .wrongApplication("the saved state belongs to another client id")
        }
        guard authority == environment.authorityURL.absoluteString else {
            throw .wrongApplication("the saved state belongs to another authority (\(authority))")
        }
        let age = now.timeIntervalSince(issuedAt)
        guard age <= SavedStateEnvelope.maximumAge else {
            throw .expired("its continuation token was issued \(Int(age)) seconds ago; the service keeps one for 10 minutes")
        }
        guard age >= -SavedStateEnvelope.maximumAge else {
            throw .malformed("its continuation token was issued in the future (\(Int(-age)) seconds from now)")
        }
    }

    /// The state `saved` describes, on this application's controllers.
    private func restore(_ saved: SavedFlowState) -> MSALNativeAuthFlowState {
        let id = saved.correlationId
        let issuedAt = saved.issuedAt
        let token = saved.continuationToken ?? ""
        let username = saved.username ?? ""
        let scopes = saved.scopes ?? []
        var context = SignInContinuationContext(controller: signInController, scopes: scopes, claims: saved.claims)
        context.authMethods = saved.authMethods ?? []
        let lifecycle = StateLifecycle(issuedAt: issuedAt)
        switch saved.kind {
        case .signInCodeRequired:
            return .signInCodeRequired(
                SignInCodeRequiredState(
                    controller: signInController, continuationToken: token, correlationId: id, scopes: scopes, claims: saved.claims,
                    issuedAt: issuedAt))
        case .signInPasswordRequired:
            return .signInPasswordRequired(
                SignInPasswordRequiredState(
                    controller: signInController, continuationToken: token, correlationId: id, username: username, scopes: scopes,
                    claims: saved.claims, issuedAt: issuedAt))
        case .signInAfterSignUp:
            return .signInAfterSignUp(
                SignInAfterSignUpState(
                    controller: signInController, username: username, continuationToken: saved.continuationToken, correlationId: id,
                    issuedAt: issuedAt))
        case .signInAfterResetPassword:
            return .signInAfterResetPassword(
                SignInAfterResetPasswordState(
                    controller: signInController, username: username, continuationToken: saved.continuationToken, correlationId: id,
                    issuedAt: issuedAt))
        case .signUpCodeRequired:
            return .signUpCodeRequired(
                SignUpCodeRequiredState(
                    controller: signUpController, username: username, continuationToken: token, correlationId: id, issuedAt: issuedAt))
        case .signUpPasswordRequired:
            return .signUpPasswordRequired(
                SignUpPasswordRequiredState(
                    controller: signUpController, username: username, continuationToken: token, correlationId: id, issuedAt: issuedAt))
        case .signUpAttributesRequired:
            return .signUpAttributesRequired(
                SignUpAttributesRequiredState(
                    controller: signUpController, username: username, continuationToken: token, correlationId: id, issuedAt: issuedAt))
        case .resetPasswordCodeRequired:
            return .resetPasswordCodeRequired(
                ResetPasswordCodeRequiredState(
                    controller: resetPasswordController, username: username, continuationToken: token, correlationId: id,
                    issuedAt: issuedAt))
        case .resetPasswordRequired:
            return .resetPasswordRequired(
                ResetPasswordRequiredState(
                    controller: resetPasswordController, username: username, continuationToken: token, correlationId: id,
                    issuedAt: issuedAt))
        case .awaitingMFA:
            return .awaitingMFA(AwaitingMFAState(context: context, continuationToken: token, correlationId: id, lifecycle: lifecycle))
        case .mfaRequired:
            return .mfaRequired(MFARequiredState(context: context, continuationToken: token, correlationId: id, lifecycle: lifecycle))
        case .registerStrongAuth:
            return .registerStrongAuth(
                RegisterStrongAuthState(context: context, continuationToken: token, correlationId: id, lifecycle: lifecycle))
        case .registerStrongAuthVerificationRequired:
            return .registerStrongAuthVerificationRequired(
                RegisterStrongAuthVerificationRequiredState(
                    context: context, continuationToken: token, correlationId: id, lifecycle: lifecycle))
        }
    }
}

extension RestoreFailure {
    /// The failure's kind alone, for logs (its text may quote the document).
    var kindName: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedVersion: "unsupported version"
        case .expired: "expired"
        case .wrongApplication: "another application's"
        case .wrongKind: "another kind"
        }
    }
}
