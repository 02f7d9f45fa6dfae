import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Server answers and failures as `MSALErrorDomain` errors (docs/error-mapping.md#classification), in one place
/// for the silent flow, the browser redirect and the code redemption.
package enum StandardErrors {
    package enum Flow {
        /// A refresh: any other server error means the user must take part (`.interactionRequired`).
        case silent
        /// The browser's redirect or the code redemption.
        case interactive
    }

    package struct ServerAnswer {
        var error: String
        var suberror: String?
        var codes: [Int]
        var description: String?
    }

    /// A server's OAuth error (docs/error-mapping.md#server-answers).
    package static func fromServer(_ answer: ServerAnswer, flow: Flow, correlationId: UUID?) -> NSError {
        var extra: [String: Any] = [MSALOAuthErrorKey: answer.error, MSALSTSErrorCodesKey: answer.codes]
        if let suberror = answer.suberror { extra[MSALOAuthSubErrorKey] = suberror }
        if let description = answer.description { extra[MSALOAuthSubErrorDescriptionKey] = description }
        let text = answer.description ?? answer.error
        func make(_ code: MSALError, _ internalCode: MSALInternalError? = nil) -> NSError {
            StandardErrors.make(code, internal: internalCode, description: text, correlationId: correlationId, extra: extra)
        }
        if answer.error == "invalid_request", answer.codes.contains(NativeAuthServerCode.passwordChangeRequired) {
            return make(.serverInvalidRequestResetPasswordRequired)
        }
        if answer.error == "unauthorized_client", answer.suberror == "protection_policy_required" {
            return make(.serverProtectionPoliciesRequired)
        }
        switch (flow, answer.error) {
        case (_, "invalid_scope"): return make(.internal, .internalErrorInvalidScope)
        case (_, "invalid_client"): return make(.internal, .internalErrorInvalidClient)
        case (.silent, _): return make(.interactionRequired)
        case (.interactive, "access_denied"): return make(.userCanceled)
        case (.interactive, "interaction_required"): return make(.interactionRequired)
        case (.interactive, "invalid_request"): return make(.internal, .internalErrorInvalidRequest)
        case (.interactive, "invalid_grant"): return make(.internal, .internalErrorInvalidGrant)
        case (.interactive, "unauthorized_client"): return make(.internal, .internalErrorUnauthorizedClient)
        case (.interactive, "server_error"):
            // MSAL puts its `MSALErrorServerError` value (-50006) in the internal-code key here.
            extra[MSALInternalErrorCodeKey] = MSALError.serverError.rawValue
            return make(.internal)
        case (.interactive, _): return make(.internal, .internalErrorAuthorizationFailed)
        }
    }

    /// A request with no usable answer: the system's own error for the network (docs/error-mapping.md#server-answers), an HTTP
    /// status the protocol does not use, or a body that cannot be read.
    package static func fromNetwork(_ failure: MSALNativeAuthNetworkFailure, correlationId: UUID?) -> NSError {
        switch failure.kind {
        case .transport, .cancelled:
            return systemError(failure)
        case .unexpectedStatus(let status):
            var extra: [String: Any] = [MSALHTTPResponseCodeKey: String(status)]
            if let wait = failure.retryAfter { extra[MSALHTTPHeadersKey] = ["Retry-After": String(Int(wait.rounded(.up)))] }
            return StandardErrors.make(
                .internal, internal: .internalErrorUnhandledResponse, description: failure.message, correlationId: correlationId,
                extra: extra)
        case .redirected(let status, _):
            return StandardErrors.make(
                .internal, internal: .internalErrorUnhandledResponse, description: failure.message, correlationId: correlationId,
                extra: [MSALHTTPResponseCodeKey: String(status)])
        case .invalidResponse:
            return StandardErrors.make(
                .internal, internal: .internalErrorInvalidResponse, description: failure.message, correlationId: correlationId)
        case .responseTooLarge:
            return StandardErrors.make(
                .internal, internal: .internalErrorUnhandledResponse, description: failure.message, correlationId: correlationId)
        }
    }

    /// The `NSURLErrorDomain` error behind a transport failure, as the platform reported it; a name
    /// lookup or connection failure while no network interface is up reads as "not connected".
    static func systemError(_ failure: MSALNativeAuthNetworkFailure) -> NSError {
        let reported = (failure.transportError?.underlyingError).map { $0 as NSError }
        let code: Int
        if let reported, reported.domain == NSURLErrorDomain {
            code = reported.code
        } else {
            switch failure.transportError?.kind {
            case .timedOut: code = NSURLErrorTimedOut
            case .cannotConnect: code = NSURLErrorCannotConnectToHost
            case .connectionLost: code = NSURLErrorNetworkConnectionLost
            case .notConnectedToInternet: code = NSURLErrorNotConnectedToInternet
            case .badServerResponse: code = NSURLErrorBadServerResponse
            case .cancelled: code = NSURLErrorCancelled
            case .responseTooLarge, .other, nil: code = failure.kind == .cancelled ? NSURLErrorCancelled : NSURLErrorUnknown
            }
        }
        let offline =
            [NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed, NSURLErrorCannotConnectToHost].contains(code) && !hasNetworkInterface()
        if offline {
            return NSError(
                domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet,
                userInfo: [
                    NSLocalizedDescriptionKey: "The Internet connection appears to be offline.", NSUnderlyingErrorKey: reported as Any,
                ])
        }
        if let reported, reported.domain == NSURLErrorDomain { return reported }
        return NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: failure.message])
    }

    /// Whether any interface other than loopback is up (FoundationNetworking reports an offline
    /// machine as a DNS failure, -1003, where Apple says -1009).
    static func hasNetworkInterface() -> Bool {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return true }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor {
            let flags = Int32(entry.pointee.ifa_flags)
            if flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, entry.pointee.ifa_addr != nil { return true }
            cursor = entry.pointee.ifa_next
        }
        return false
    }

    /// A failed native `getAccessToken`-style refresh as MSAL's silent flow reports it.
    package static func fromRefresh(_ error: RetrieveAccessTokenError) -> NSError {
        if let declined = error.declinedScopes, let granted = error.grantedScopes {
            let shown = ScopeSet(granted).resourceScopesAsGiven
            return StandardErrors.make(
                .serverDeclinedScopes, description: error.errorDescription ?? "The server declined some scopes",
                correlationId: error.correlationId,
                extra: [MSALGrantedScopesKey: shown, MSALDeclinedScopesKey: declined])
        }
        if let serverError = error.serverError {
            return fromServer(
                ServerAnswer(
                    error: serverError, suberror: error.serverSuberror, codes: error.errorCodes, description: error.errorDescription),
                flow: .silent, correlationId: error.correlationId)
        }
        if let failure = error.underlyingError as? MSALNativeAuthNetworkFailure {
            return fromNetwork(failure, correlationId: error.correlationId)
        }
        if error.isRefreshTokenExpired || error.isBrowserRequired {
            return StandardErrors.make(
                .interactionRequired, description: error.errorDescription ?? "Sign in again", correlationId: error.correlationId)
        }
        return StandardErrors.make(
            .internal, internal: .internalErrorUnexpected, description: error.errorDescription ?? "Unexpected error",
            correlationId: error.correlationId)
    }
}
