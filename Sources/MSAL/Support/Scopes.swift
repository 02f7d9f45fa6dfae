import Foundation

/// Scope lists as the token endpoint wants them (docs/protocol.md#scopes).
package enum Scopes {
    /// The OpenID Connect scopes MSAL always asks for.
    package static let oidcDefaults = ["openid", "profile", "offline_access"]
    package static let oidcDefaultsLowercased: Set<String> = ["openid", "profile", "offline_access"]

    /// Whether `scope` is one of the OIDC defaults, in any case.
    package static func isOIDC(_ scope: String) -> Bool {
        oidcDefaultsLowercased.contains(scope.lowercased())
    }

    /// The app's scopes followed by the OIDC defaults, without duplicates, order kept.
    package static func withDefaults(_ scopes: [String]?) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for scope in (scopes ?? []) + oidcDefaults {
            let trimmed = trim(scope)
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { continue }
            out.append(trimmed)
        }
        return out
    }

    /// Without leading and trailing white space; the common case (none) costs no copy.
    /// (Foundation's `trimmingCharacters(in:)` costs about 1 µs a call on Linux, measured here.)
    private static func trim(_ scope: String) -> String {
        guard let first = scope.first, let last = scope.last, first.isWhitespace || last.isWhitespace else { return scope }
        return String(scope.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    package static func wire(_ scopes: [String]) -> String {
        scopes.joined(separator: " ")
    }

    /// For `…/.default` (including `api://x//.default` for a resource ending in `/`): the resource,
    /// lower-cased and without trailing slashes; nil for any other scope.
    package static func defaultScopeResource(_ scope: String) -> String? {
        guard scope.lowercased().hasSuffix("/.default") else { return nil }
        var resource = String(scope.dropLast(".default".count)).lowercased()
        while resource.hasSuffix("/") { resource.removeLast() }
        return resource
    }

    /// Whether `granted` (lower-cased) satisfies the requested scope `wanted` (lower-cased):
    /// equal, or any scope of the resource when `wanted` is its `.default`.
    package static func covers(_ granted: Set<String>, _ wanted: String) -> Bool {
        if let resource = defaultScopeResource(wanted) {
            return granted.contains(wanted) || granted.contains { $0.hasPrefix(resource + "/") }
        }
        return granted.contains(wanted)
    }
}
