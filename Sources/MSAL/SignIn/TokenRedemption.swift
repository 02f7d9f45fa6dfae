import Foundation

/// Why a `/oauth2/v2.0/token` call did not yield tokens, classified once (docs/protocol.md#token-errors) so that each
/// flow step maps it to its own public error.
package enum TokenRedemptionFailure: Error, Sendable {
    case browserRequired(NativeAuthErrorDetails)
    /// `invalid_grant` with first code 50126.
    case invalidCredentials(NativeAuthErrorDetails)
    /// `user_not_found`, or `invalid_grant` with first code 50034.
    case userNotFound(NativeAuthErrorDetails)
    /// `invalid_grant` + `invalid_oob_value`.
    case invalidCode(NativeAuthErrorDetails)
    /// `invalid_grant` + `mfa_required`: the first factor was right; the sign-in goes on at the
    /// MFA introspect endpoint with `continuationToken` (docs/protocol.md#multifactor-authentication).
    case mfaRequired(continuationToken: String, NativeAuthErrorDetails)
    /// `invalid_grant` + `registration_required`: the user must register a strong-auth method; the
    /// sign-in goes on at `/register/v1.0/introspect` with `continuationToken` (docs/protocol.md#strong-auth-registration).
    case registrationRequired(continuationToken: String, NativeAuthErrorDetails)
    /// Anything else, including answers that cannot be cached (no `client_info`, a broken id token).
    case general(NativeAuthErrorDetails)

    package var details: NativeAuthErrorDetails {
        switch self {
        case .browserRequired(let d), .invalidCredentials(let d), .userNotFound(let d), .invalidCode(let d),
            .mfaRequired(_, let d), .registrationRequired(_, let d), .general(let d):
            return d
        }
    }
}

/// One token grant of a native-auth flow.
package struct TokenGrant: Sendable {
    package enum Kind: Sendable {
        case password(username: String, password: String)
        case oob(code: String)
        /// The second factor (docs/protocol.md#token-requests: grant `mfa_oob`, no `challenge_type`).
        case mfaOOB(code: String)
        case continuationToken(username: String?)
        /// Native auth V2: the code the resume answered with (docs/decisions.md#native-auth-v2);
        /// sent without a continuation token, `redirect_uri` or `code_verifier`.
        case authorizationCode(code: String)
    }

    package var kind: Kind
    package var continuationToken: String
    /// App scopes with the OIDC defaults already added.
    package var scopes: [String]
    package var claims: String?
}

extension NativeAuthClient {
    /// Redeems a grant at the token endpoint and builds the account result (docs/protocol.md#token-endpoint, #password-sign-in,
    /// #code-sign-in, #sign-in-after-sign-up-or-reset).
    package func redeem(_ grant: TokenGrant, correlationId: UUID) async
        -> (result: Result<MSALNativeAuthUserAccountResult, TokenRedemptionFailure>, correlationId: UUID)
    {
        var fields: [(String, String?)] = []
        var clientInfo = "true"
        switch grant.kind {
        case .authorizationCode(let code):
            fields = [("grant_type", "authorization_code"), ("code", code)]
            clientInfo = "1"
        default:
            fields = [("continuation_token", grant.continuationToken)]
        }
        switch grant.kind {
        case .authorizationCode: break
        case .password(let username, let password):
            fields += [
                ("grant_type", "password"), ("username", username), ("password", password),
                ("challenge_type", environment.challengeTypes.wireValue),
            ]
        case .oob(let code):
            fields += [("grant_type", "oob"), ("oob", code)]
        case .mfaOOB(let code):
            fields += [("grant_type", "mfa_oob"), ("oob", code)]
        case .continuationToken(let username):
            fields += [
                ("grant_type", "continuation_token"), ("username", username),
                ("challenge_type", environment.challengeTypes.wireValue),
            ]
        }
        fields += [("scope", Scopes.wire(grant.scopes)), ("client_info", clientInfo), ("claims", grant.claims)]

        let (outcome, correlationId) = await call(.token, fields, correlationId: correlationId, expecting: TokenResponse.self)
        switch outcome {
        case .success(let response):
            do {
                let now = environment.clock.now()
                let result = try MSALNativeAuthUserAccountResult.make(
                    from: response, requestedScopes: grant.scopes, authority: environment.authorityURL,
                    now: now, correlationId: correlationId, client: self)
                environment.logger.info("Token response accepted for account \(pii: result.account.username)")
                let parsed = try ParsedTokenResponse(response, requestedScopes: grant.scopes)
                do {
                    try environment.cache.save(
                        response, clientInfo: parsed.clientInfo, idToken: parsed.idToken, scopes: ScopeSet(parsed.grantedScopes),
                        now: now, condition: .signIn(singleAccount: !environment.allowsMultipleAccounts))
                } catch {
                    // Signed in all the same; the tokens live in the result and the cache error is on record.
                    environment.logger.warning("The new tokens could not be cached: \(error.message)")
                }
                return (.success(result), correlationId)
            } catch {
                environment.logger.warning("Token response cannot be used: \(error.message)")
                let failure = MSALNativeAuthNetworkFailure(kind: .invalidResponse, message: error.message)
                return (.failure(.general(NativeAuthErrorDetails(failure, correlationId: correlationId))), correlationId)
            }
        case .redirect(let reason):
            return (
                .failure(.browserRequired(NativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId))), correlationId
            )
        case .failure(let failure):
            return (.failure(.general(NativeAuthErrorDetails(failure, correlationId: correlationId))), correlationId)
        case .apiError(let apiError):
            return (.failure(Self.classify(apiError, correlationId: correlationId)), correlationId)
        }
    }

    static func classify(_ apiError: NativeAuthAPIError, correlationId: UUID) -> TokenRedemptionFailure {
        let fallback = NativeAuthErrorMessage.generalError
        let details = NativeAuthErrorDetails(apiError, correlationId: correlationId, fallback: fallback)
        switch (apiError.error, apiError.suberror, apiError.firstCode) {
        case (.invalidGrant, .invalidOOBValue?, _):
            return .invalidCode(details)
        case (.invalidGrant, .mfaRequired?, _), (.invalidGrant, .registrationRequired?, _):
            // The token is what the next step needs; without it the answer is of no use (docs/protocol.md#token-errors).
            guard let token = apiError.continuationToken, !token.isEmpty else { return .general(details) }
            return apiError.suberror == .mfaRequired
                ? .mfaRequired(continuationToken: token, details) : .registrationRequired(continuationToken: token, details)
        case (.invalidGrant, _, NativeAuthServerCode.invalidCredentials?):
            return .invalidCredentials(details)
        case (.invalidGrant, _, NativeAuthServerCode.userNotFound?), (.userNotFound, _, _):
            return .userNotFound(details)
        case (.invalidRequest, _, _) where apiError.errorCodes.contains(NativeAuthServerCode.passwordChangeRequired):
            var changed = details
            changed.message =
                "User password change is required, which can't be done natively. Reset the password first. "
                + (details.message ?? "")
            return .general(changed)
        default:
            return .general(details)
        }
    }
}
