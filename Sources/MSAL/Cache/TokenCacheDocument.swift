import Foundation

/// The unified MSAL token cache as one JSON document: sections `AccessToken`, `RefreshToken`,
/// `IdToken`, `Account`, `AppMetadata`, each a map from cache key to entry. Entries stay JSON
/// objects, so fields this SDK does not know (and sections it does not use) survive a round trip.
package struct TokenCacheDocument: Sendable, Equatable {
    package var sections: [String: [String: [String: JSONValue]]] = [:]
    /// Top-level members that are not objects of entries; kept as they were.
    package var otherMembers: [String: JSONValue] = [:]

    package init() {}

    package enum Section: String, CaseIterable, Sendable {
        case accessToken = "AccessToken"
        case refreshToken = "RefreshToken"
        case idToken = "IdToken"
        case account = "Account"
        case appMetadata = "AppMetadata"
    }

    package subscript(section: Section) -> [String: [String: JSONValue]] {
        get { sections[section.rawValue] ?? [:] }
        set { sections[section.rawValue] = newValue }
    }

    package var isEmpty: Bool { sections.values.allSatisfy(\.isEmpty) && otherMembers.isEmpty }

    /// Parses cache JSON. An empty file is an empty cache; anything that is not an object of
    /// objects is an error (the caller keeps the file as a backup).
    package init(json data: Data) throws(MSALSetupError) {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) { return }
        guard let parsed = JSONValue.parse(data), case .object(let top) = parsed else {
            throw MSALSetupError(.invalidJSON, "The token cache file is not a JSON object")
        }
        for (name, value) in top {
            guard case .object(let entries) = value else {
                otherMembers[name] = value
                continue
            }
            var section: [String: [String: JSONValue]] = [:]
            for (key, entry) in entries {
                guard case .object(let fields) = entry else {
                    throw MSALSetupError(.invalidJSON, "The token cache entry '\(name)/\(key)' is not a JSON object")
                }
                section[key] = fields
            }
            sections[name] = section
        }
    }

    /// Compact JSON with sorted keys.
    package func serialized() -> Data {
        var top = otherMembers
        for (name, entries) in sections {
            top[name] = .object(entries.mapValues { .object($0) })
        }
        for section in Section.allCases where top[section.rawValue] == nil {
            top[section.rawValue] = .object([:])
        }
        return JSONValue.object(top).serializedData()
    }
}

/// Cache keys exactly as MSAL's other libraries write them (lower-cased, `-`-joined).
package enum TokenCacheKey {
    package static func accessToken(homeAccountId: String, environment: String, clientId: String, realm: String, target: String) -> String {
        [homeAccountId, environment, "accesstoken", clientId, realm, target].joined(separator: "-").lowercased()
    }

    package static func refreshToken(homeAccountId: String, environment: String, clientId: String) -> String {
        [homeAccountId, environment, "refreshtoken", clientId, "", ""].joined(separator: "-").lowercased()
    }

    package static func idToken(homeAccountId: String, environment: String, clientId: String, realm: String) -> String {
        [homeAccountId, environment, "idtoken", clientId, realm, ""].joined(separator: "-").lowercased()
    }

    package static func account(homeAccountId: String, environment: String, realm: String) -> String {
        [homeAccountId, environment, realm].joined(separator: "-").lowercased()
    }

    package static func appMetadata(environment: String, clientId: String) -> String {
        "appmetadata-\(environment)-\(clientId)"
    }

    /// `target`: scopes sorted case-sensitively and joined with spaces.
    package static func target(_ scopes: [String]) -> String {
        Array(Set(scopes)).sorted().joined(separator: " ")
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    package func string(_ key: String) -> String? { self[key]?.stringValue }

    /// A time stored as a string of epoch seconds (the schema) or, leniently, as a number.
    package func epochSeconds(_ key: String) -> Double? {
        switch self[key] {
        case .string(let text)?: return Double(text)
        case .number(let number)?: return number
        default: return nil
        }
    }
}
