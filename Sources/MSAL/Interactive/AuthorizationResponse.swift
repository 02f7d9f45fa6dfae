import Foundation

/// The query of the redirect that ends a browser sign-in (RFC 6749 §4.1.2, §4.1.2.1): a `code`, or
/// an `error` with its description. Never logged or shown as is: `code` is a credential.
package struct AuthorizationResponse: Sendable, Equatable {
    /// The authorization code, to redeem with the PKCE verifier.
    package var code: String?
    /// The `state` echoed by the service; the listener only accepts responses where it matches.
    package var state: String?
    /// `client_info` (base64url JSON with `uid` and `utid`) when `client_info=1` was asked.
    package var clientInfo: String?
    /// `error`, e.g. `access_denied`.
    package var error: String?
    /// `error_description`.
    package var errorDescription: String?
    /// `error_subcode`, e.g. `cancel` when the user backed out.
    package var errorSubcode: String?

    /// All fields given.
    package init(
        code: String? = nil, state: String? = nil, clientInfo: String? = nil, error: String? = nil, errorDescription: String? = nil,
        errorSubcode: String? = nil
    ) {
        self.code = code
        self.state = state
        self.clientInfo = clientInfo
        self.error = error
        self.errorDescription = errorDescription
        self.errorSubcode = errorSubcode
    }

    /// From decoded query pairs: the first value of each name counts, empty values count as absent.
    /// Nil when the query has neither `code` nor `error`, so it is not an authorization response.
    package init?(query: [(String, String)]) {
        func first(_ name: String) -> String? {
            query.first { $0.0 == name && !$0.1.isEmpty }?.1
        }
        guard first("code") != nil || first("error") != nil else { return nil }
        self.init(
            code: first("code"), state: first("state"), clientInfo: first("client_info"), error: first("error"),
            errorDescription: first("error_description"), errorSubcode: first("error_subcode"))
    }

    /// Whether the service answered with an error rather than a code.
    package var isError: Bool { error != nil }
}
