import Foundation

/// The entry point for native sign-in, sign-up and password reset against an External ID tenant.
/// Mirrors MSAL's `MSALNativeAuthPublicClientApplication`.
///
/// Each flow comes in two forms that share one code path:
/// - `async`: returns a result enum and throws the step's typed error;
/// - delegate: returns at once and calls the delegate on the main actor, exactly once.
///
/// ```swift
/// // given: config: MSALNativeAuthPublicClientApplicationConfig
/// let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
/// let parameters = MSALNativeAuthSignInParameters(username: "ada@contoso.com")
/// parameters.password = "…"
/// switch try await app.signIn(parameters: parameters) {
/// case .completed(let result): print("Signed in as", result.account.username ?? "")
/// case .codeRequired(_, let sentTo, _, _): print("Enter the code sent to", sentTo)  // then state.submitCode(code:)
/// case .passwordRequired: print("Enter your password")  // then state.submitPassword(password:)
/// case .awaitingMFA, .strongAuthMethodRegistration: print("A second factor is needed")
/// }
/// ```
///
/// Main-actor callbacks in a command-line program: the main actor runs on the main thread, so the
/// thread must be serving it. Either make `main` `async` (`@main struct Tool { static func main()
/// async { … } }`), which keeps the main actor's executor running while you await, or end
/// `main.swift` with `dispatchMain()` (or a `RunLoop.main.run()` loop, as an ncurses program
/// polling for keys does).
public final class MSALNativeAuthPublicClientApplication: MSALPublicClientApplication, @unchecked Sendable {
    let signInController: SignInController
    let signUpController: SignUpController
    let resetPasswordController: ResetPasswordController

    /// Creates the application. Throws an `MSALErrorDomain` error (`.internal` with
    /// `internalErrorInvalidParameter`) for an empty client id or an authority that is not usable
    /// (see `MSALCIAMAuthority`).
    public convenience init(nativeAuthConfiguration configuration: MSALNativeAuthPublicClientApplicationConfig) throws {
        do throws(SetupError) {
            try self.init(configuration: configuration, clock: SystemClock(), uuid: { CorrelationID.next() })
        } catch { throw error.nsError }
    }

    package init(
        configuration: MSALNativeAuthPublicClientApplicationConfig, clock: any NativeAuthClock, uuid: @escaping @Sendable () -> UUID
    ) throws(SetupError) {
        let environment = try Self.makeEnvironment(configuration, clock: clock, uuid: uuid)
        let client = NativeAuthClient(environment: environment)
        signInController = SignInController(client: client)
        signUpController = SignUpController(client: client, signIn: signInController)
        resetPasswordController = ResetPasswordController(client: client, signIn: signInController)
        super.init(environment: environment)
        environment.logger.info("Native auth application created for authority \(environment.authorityURL.absoluteString)")
    }

    // MARK: Sign-in

    /// Starts a sign-in (docs/protocol.md#password-sign-in, #code-sign-in).
    ///
    /// Without a password the server chooses: a password prompt (`.passwordRequired`) or an emailed
    /// code (`.codeRequired`). With a password, a password account completes in one call; a
    /// code-only account still gets `.codeRequired`.
    public func signIn(parameters: MSALNativeAuthSignInParameters) async throws(SignInStartError) -> SignInStartResult {
        try await signInController.start(startRequest(parameters))
    }

    /// Starts a sign-in and reports to `delegate` on the main actor.
    public func signIn(parameters: MSALNativeAuthSignInParameters, delegate: any SignInStartDelegate) {
        let request = startRequest(parameters)
        let controller = signInController
        withDelegateOnMainActor(delegate) { delegate in
            do throws(SignInStartError) {
                let result = try await controller.start(request)
                switch result {
                case .codeRequired(let newState, let sentTo, let channel, let codeLength):
                    delegate.onSignInCodeRequired(
                        newState: newState, sentTo: sentTo, channelTargetType: channel, codeLength: codeLength)
                case .passwordRequired(let newState):
                    delegate.onSignInPasswordRequired(newState: newState)
                case .completed, .awaitingMFA, .strongAuthMethodRegistration:
                    result.step?.deliver(to: delegate, completed: delegate.onSignInCompleted) {
                        delegate.onSignInStartError(error: SignInStartError(type: .generalError, $0))
                    }
                }
            } catch {
                delegate.onSignInStartError(error: error)
            }
        }
    }

    /// Copies the parameters (a mutable class) into a value at call time.
    private func startRequest(_ parameters: MSALNativeAuthSignInParameters) -> SignInController.StartRequest {
        SignInController.StartRequest(
            username: parameters.username,
            password: parameters.password,
            scopes: Scopes.withDefaults(parameters.scopes),
            claims: parameters.claimsRequest?.jsonString(),
            correlationId: parameters.correlationId ?? environment.uuid())
    }

    // MARK: Sign-up

    /// Starts a sign-up (docs/protocol.md#sign-up): the server sends a code to verify the address.
    public func signUp(parameters: MSALNativeAuthSignUpParameters) async throws(SignUpStartError) -> SignUpStartResult {
        try await signUpController.start(signUpRequest(parameters))
    }

    /// Starts a sign-up and reports to `delegate` on the main actor.
    public func signUp(parameters: MSALNativeAuthSignUpParameters, delegate: any SignUpStartDelegate) {
        let request = signUpRequest(parameters)
        let controller = signUpController
        withDelegateOnMainActor(delegate) { delegate in
            do throws(SignUpStartError) {
                switch try await controller.start(request) {
                case .codeRequired(let newState, let sentTo, let channel, let codeLength):
                    delegate.onSignUpCodeRequired(
                        newState: newState, sentTo: sentTo, channelTargetType: channel, codeLength: codeLength)
                case .attributesInvalid(let names):
                    // The default names the missing callback; the error carries this flow's correlation id.
                    if let missing = UnimplementedCallback.detect({ delegate.onSignUpAttributesInvalid(attributeNames: names) }) {
                        delegate.onSignUpStartError(
                            error: SignUpStartError(type: .generalError, .notImplemented(missing, request.correlationId)))
                    }
                }
            } catch {
                delegate.onSignUpStartError(error: error)
            }
        }
    }

    private func signUpRequest(_ parameters: MSALNativeAuthSignUpParameters) -> SignUpController.StartRequest {
        SignUpController.StartRequest(
            username: parameters.username,
            password: parameters.password,
            attributes: Result { () throws(SetupError) in try SignUpAttributes.json(parameters.attributes) },
            correlationId: parameters.correlationId ?? environment.uuid())
    }

    // MARK: Password reset

    /// Starts a self-service password reset (docs/protocol.md#password-reset): the server sends a code to the address.
    public func resetPassword(parameters: MSALNativeAuthResetPasswordParameters) async throws(ResetPasswordStartError)
        -> CodeRequiredResult<ResetPasswordCodeRequiredState>
    {
        try await resetPasswordController.start(resetRequest(parameters))
    }

    /// Starts a password reset and reports to `delegate` on the main actor.
    public func resetPassword(parameters: MSALNativeAuthResetPasswordParameters, delegate: any ResetPasswordStartDelegate) {
        let request = resetRequest(parameters)
        let controller = resetPasswordController
        withDelegateOnMainActor(delegate) { delegate in
            do throws(ResetPasswordStartError) {
                let sent = try await controller.start(request)
                delegate.onResetPasswordCodeRequired(
                    newState: sent.newState, sentTo: sent.sentTo, channelTargetType: sent.channelTargetType, codeLength: sent.codeLength)
            } catch {
                delegate.onResetPasswordStartError(error: error)
            }
        }
    }

    private func resetRequest(_ parameters: MSALNativeAuthResetPasswordParameters) -> ResetPasswordController.StartRequest {
        ResetPasswordController.StartRequest(username: parameters.username, correlationId: parameters.correlationId ?? environment.uuid())
    }

    // MARK: Accounts

    /// The signed-in account of this client id, restored from the token cache (for example after a
    /// restart), or nil. With several accounts in the cache, the one used most recently, whoever
    /// that is: an app that serves several users (a backend) names its user with
    /// `nativeAuthUserAccount(forIdentifier:)`. Reads every account (linear in the accounts).
    public func getNativeAuthUserAccount(correlationId: UUID? = nil) -> MSALNativeAuthUserAccountResult? {
        environment.cache.accounts().first.map(accountResult(for:))
    }

    /// The account whose home account id (`uid.utid`, `MSALAccount.identifier`) is `identifier`,
    /// compared case-insensitively, to get its tokens natively and sign it out: this SDK's addition
    /// to MSAL's native surface (docs/compatibility.md), for an app that serves several users. It
    /// reads that account alone, so its cost does not grow with the accounts in the cache. Throws
    /// as `account(forIdentifier:)` does: not found, `.internal` with `internalErrorAccountRequired`;
    /// a cache that cannot be used, its error.
    public func nativeAuthUserAccount(forIdentifier identifier: String) throws -> MSALNativeAuthUserAccountResult {
        try cachedAccount(forIdentifier: identifier)
    }

    /// The same, for a caller in Swift concurrency: an account that the token cache must first read
    /// from a shared store (`.entryStore`) is read on the SDK's own threads, never on the caller's
    /// (docs/scale-out.md); one held in memory is answered at once.
    nonisolated(nonsending) public func nativeAuthUserAccount(forIdentifier identifier: String) async throws
        -> MSALNativeAuthUserAccountResult
    {
        try await environment.cache.withAccountRead(identifier) { Result { try cachedAccount(forIdentifier: identifier) } }.get()
    }
}
