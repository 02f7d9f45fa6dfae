import Foundation

/// The protected web APIs of a seed (docs/emulator.md).
extension Seed {
    /// A protected web API: a resource with scopes, served by the emulator at `path`.
    public struct API: Codable, Sendable {
        /// The API's short name, for example `todolist`.
        public var name: String
        /// The resource's application id: the `aud` of its access tokens.
        public var appId: String
        /// The application id URI that prefixes its scopes, e.g. `api://emulator/todolist`.
        public var identifierUri: String
        /// The scopes it defines, without the identifier URI, for example `ToDoList.Read`.
        public var scopes: [String]
        /// Where the emulator serves the sample API, e.g. `/api/todolist`.
        public var path: String
        /// The scope a caller's token must carry in `scp`.
        public var requiredScope: String
        /// Authentication-context values (`acrs`) a caller's token must carry (JSON `required_acrs`);
        /// without them the API answers 401 with a claims challenge. Default nil: none.
        public var requiredAcrs: [String]?

        /// An API; `requiredAcrs` starts nil.
        public init(name: String, appId: String, identifierUri: String, scopes: [String], path: String, requiredScope: String) {
            self.name = name
            self.appId = appId
            self.identifierUri = identifierUri
            self.scopes = scopes
            self.path = path
            self.requiredScope = requiredScope
        }

        enum CodingKeys: String, CodingKey {
            case name
            case appId = "app_id"
            case identifierUri = "identifier_uri"
            case scopes, path
            case requiredScope = "required_scope"
            case requiredAcrs = "required_acrs"
        }

        /// The full scope strings an app asks for, e.g. `api://emulator/todolist/ToDoList.Read`.
        /// An identifier URI that ends in `/` is followed directly by the scope name.
        public var fullScopes: [String] { scopes.map { scopeString($0) } }

        /// `identifierUri` + `/` + name, without doubling a trailing slash (but `.default` after a
        /// trailing slash keeps both, `api://x//.default`, as MSAL builds it).
        public func scopeString(_ name: String) -> String {
            if name == ".default" { return identifierUri + "/" + name }
            return identifierUri.hasSuffix("/") ? identifierUri + name : identifierUri + "/" + name
        }
    }
}
