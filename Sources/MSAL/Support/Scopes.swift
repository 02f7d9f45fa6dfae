import Foundation

/// Scope lists as the token endpoint wants them (spec §6.3).
package enum Scopes {
    /// The OpenID Connect scopes MSAL always asks for.
    package static let oidcDefaults = ["openid", "profile", "offline_access"]

    /// The app's scopes followed by the OIDC defaults, without duplicates, order kept.
    package static func withDefaults(_ scopes: [String]?) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for scope in (scopes ?? []) + oidcDefaults {
            let trimmed = scope.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { continue }
            out.append(trimmed)
        }
        return out
    }

    package static func wire(_ scopes: [String]) -> String {
        scopes.joined(separator: " ")
    }
}
