import Foundation

/// The emulator's world at start: one tenant, its apps, users and protected APIs.
/// Loaded from JSON (`--seed FILE`) with the field names below, or `Seed.demo`.
public struct Seed: Codable, Sendable {
    /// The tenant the emulator plays: its names in the authority and the tokens.
    public struct Tenant: Codable, Sendable {
        /// The subdomain: the authority is `…/{subdomain}.onmicrosoft.com` (the tenant id works too).
        public var subdomain: String
        /// The tenant id (a GUID): the `tid` of tokens and part of the issuer.
        public var id: String
    }

    /// A user attribute an app collects at sign-up (JSON under an app's `attributes`).
    public struct Attribute: Codable, Sendable {
        /// The attribute's name as sent in `attributes`, for example `displayName`.
        public var name: String
        /// The type announced in `required_attributes`. Default `string`.
        public var type: String = "string"
        /// Sign-up asks for it before it completes. Default true.
        public var required: Bool = true
        /// A pattern the value must match at sign-up (`attribute_validation_failed` otherwise); nil: any value.
        public var regex: String?
        /// Required attributes are asked for one screen at a time, lowest first.
        public var screen: Int = 1
        /// The display text of native auth V2 attribute descriptors (`label`); nil: the name.
        public var label: String?

        /// An attribute; the defaults are those of the JSON.
        public init(
            name: String, type: String = "string", required: Bool = true, regex: String? = nil, screen: Int = 1, label: String? = nil
        ) {
            self.name = name
            self.type = type
            self.required = required
            self.regex = regex
            self.screen = screen
            self.label = label
        }

        enum CodingKeys: String, CodingKey { case name, type, required, regex, screen, label }
        /// Reads an attribute from the seed's JSON, absent fields taking their defaults.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            type = try c.decodeIfPresent(String.self, forKey: .type) ?? "string"
            required = try c.decodeIfPresent(Bool.self, forKey: .required) ?? true
            regex = try c.decodeIfPresent(String.self, forKey: .regex)
            screen = try c.decodeIfPresent(Int.self, forKey: .screen) ?? 1
            label = try c.decodeIfPresent(String.self, forKey: .label)
        }
    }

    /// How an app's users sign up (JSON `sign_up_method`).
    public enum SignUpMethod: String, Codable, Sendable {
        /// Email with password: the password is set during sign-up.
        case password
        /// Email one-time passcode only: no password.
        case otp
    }

    /// Whether an app's users must pass multifactor authentication (the user flow's MFA policy).
    public enum MFAPolicy: String, Codable, Sendable {
        /// Only users with `mfa_required` need MFA.
        case off
        /// Every user of the app needs MFA.
        case required
    }

    /// Whether the service runs a risk check on the phone before every SMS it sends in a native auth V2
    /// flow (JSON `sms_risk_verification`; docs/protocol.md#native-auth-v2-experimental).
    public enum SMSRiskVerification: String, Codable, Sendable {
        /// One `riskverify` hop before every SMS send (default).
        case always
        /// No hop: the code is sent at once.
        case never
    }

    /// An app registration: a public client, its native-auth switches, sign-up attributes, MFA policy
    /// and browser sign-in settings.
    public struct App: Codable, Sendable {
        /// The application (client) id the SDK is configured with (JSON `client_id`).
        public var clientId: String
        /// The app's display name, shown on the browser sign-in and consent pages.
        public var name: String
        /// Native authentication is enabled for the app (JSON `native_auth_enabled`); without it every
        /// native-auth request answers `nativeauthapi_disabled`. Default true.
        public var nativeAuthEnabled: Bool = true
        /// The app is a public client (JSON `public_client`), which native authentication requires. Default true.
        public var publicClient: Bool = true
        /// How its users sign up (JSON `sign_up_method`). Default `password`.
        public var signUpMethod: SignUpMethod = .password
        /// Sign-up is enabled (JSON `sign_up_enabled`). Default true.
        public var signUpEnabled: Bool = true
        /// Self-service password reset is enabled (JSON `password_reset_enabled`). Default true.
        public var passwordResetEnabled: Bool = true
        /// The attributes sign-up collects. Default none.
        public var attributes: [Attribute] = []
        /// JSON `mfa_policy`, default `off`.
        public var mfaPolicy: MFAPolicy = .off
        /// Contacts the service refuses to send a registration code to (JSON `blocked_contacts`):
        /// email addresses (compared case-insensitively) or phone numbers (compared on `+` and digits).
        public var blockedContacts: [String] = []
        /// Redirect URIs registered for browser sign-in (JSON `redirect_uris`). Loopback `http` URIs
        /// match any port. Default `["http://localhost"]`.
        public var redirectUris: [String] = ["http://localhost"]
        /// Browser sign-in asks the user to consent to resource scopes not consented before (JSON
        /// `requires_consent`). Default false; `prompt=consent` shows the consent page anyway.
        public var requiresConsent = false
        /// Microsoft Graph delegated scopes granted to the app (JSON `graph_scopes`). Default
        /// `["User.Read"]`, as a new app registration is given; another Graph scope answers
        /// AADSTS65001 (EmulatorRouter+Token.swift, `resolveScopes`).
        public var graphScopes: [String] = ["User.Read"]
        /// The native auth V2 routes serve the app (JSON `v2_enabled`); without it the V2 entry answers
        /// `nativeauthapi_disabled`. Default true.
        public var v2Enabled = true
        /// JSON `sms_risk_verification`, default `always` (the `/_emulator/v2` hook can override it).
        public var smsRiskVerification: SMSRiskVerification = .always

        /// An app; the fields not given take their defaults.
        public init(
            clientId: String, name: String, signUpMethod: SignUpMethod, attributes: [Attribute] = [], mfaPolicy: MFAPolicy = .off,
            blockedContacts: [String] = []
        ) {
            self.clientId = clientId
            self.name = name
            self.signUpMethod = signUpMethod
            self.attributes = attributes
            self.mfaPolicy = mfaPolicy
            self.blockedContacts = blockedContacts
        }

        enum CodingKeys: String, CodingKey {
            case clientId = "client_id"
            case name
            case nativeAuthEnabled = "native_auth_enabled"
            case publicClient = "public_client"
            case signUpMethod = "sign_up_method"
            case signUpEnabled = "sign_up_enabled"
            case passwordResetEnabled = "password_reset_enabled"
            case attributes
            case mfaPolicy = "mfa_policy"
            case blockedContacts = "blocked_contacts"
            case redirectUris = "redirect_uris"
            case requiresConsent = "requires_consent"
            case graphScopes = "graph_scopes"
            case v2Enabled = "v2_enabled"
            case smsRiskVerification = "sms_risk_verification"
        }

        /// Reads an app from the seed's JSON, absent fields taking their defaults (`name` defaults to the client id).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            clientId = try c.decode(String.self, forKey: .clientId)
            name = try c.decodeIfPresent(String.self, forKey: .name) ?? clientId
            nativeAuthEnabled = try c.decodeIfPresent(Bool.self, forKey: .nativeAuthEnabled) ?? true
            publicClient = try c.decodeIfPresent(Bool.self, forKey: .publicClient) ?? true
            signUpMethod = try c.decodeIfPresent(SignUpMethod.self, forKey: .signUpMethod) ?? .password
            signUpEnabled = try c.decodeIfPresent(Bool.self, forKey: .signUpEnabled) ?? true
            passwordResetEnabled = try c.decodeIfPresent(Bool.self, forKey: .passwordResetEnabled) ?? true
            attributes = try c.decodeIfPresent([Attribute].self, forKey: .attributes) ?? []
            mfaPolicy = try c.decodeIfPresent(MFAPolicy.self, forKey: .mfaPolicy) ?? .off
            blockedContacts = try c.decodeIfPresent([String].self, forKey: .blockedContacts) ?? []
            redirectUris = try c.decodeIfPresent([String].self, forKey: .redirectUris) ?? ["http://localhost"]
            requiresConsent = try c.decodeIfPresent(Bool.self, forKey: .requiresConsent) ?? false
            graphScopes = try c.decodeIfPresent([String].self, forKey: .graphScopes) ?? ["User.Read"]
            v2Enabled = try c.decodeIfPresent(Bool.self, forKey: .v2Enabled) ?? true
            smsRiskVerification = try c.decodeIfPresent(SMSRiskVerification.self, forKey: .smsRiskVerification) ?? .always
        }
    }

    /// A registered strong-auth (second-factor) method of a user.
    public struct StrongAuthMethod: Codable, Sendable, Equatable {
        /// Where a method's codes go.
        public enum Channel: String, Codable, Sendable {
            case email, sms
        }

        /// The id `/oauth2/v2.0/introspect` lists and `/oauth2/v2.0/challenge` takes, e.g. a GUID.
        public var id: String
        /// Where its codes go: `email` or `sms`.
        public var channel: Channel
        /// An email address (channel `email`) or a phone number such as `+15550100` (channel `sms`).
        public var target: String
        /// The service refuses to send to it (`access_denied` + `provider_blocked_by_rep`).
        public var blocked: Bool = false

        /// A registered method.
        public init(id: String, channel: Channel, target: String, blocked: Bool = false) {
            self.id = id
            self.channel = channel
            self.target = target
            self.blocked = blocked
        }

        enum CodingKeys: String, CodingKey { case id, channel, target, blocked }
        /// Reads a method from the seed's JSON; `blocked` defaults to false.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            channel = try c.decode(Channel.self, forKey: .channel)
            target = try c.decode(String.self, forKey: .target)
            blocked = try c.decodeIfPresent(Bool.self, forKey: .blocked) ?? false
        }
    }

    /// A first-factor method of native auth V2 sign-in (JSON `first_factors`).
    public enum FirstFactor: String, Codable, Sendable {
        /// The account's password.
        case password
        /// A one-time code to the account's own address.
        case email
    }

    /// A way to prove the account before a V2 password reset (JSON under `recovery_methods`).
    public struct RecoveryMethod: Codable, Sendable, Equatable {
        /// `email` or `sms`.
        public var channel: StrongAuthMethod.Channel
        /// An email address or a phone number (`+` and 8–15 digits).
        public var target: String

        /// A recovery method.
        public init(channel: StrongAuthMethod.Channel, target: String) {
            self.channel = channel
            self.target = target
        }
    }

    /// An account of the tenant.
    public struct User: Codable, Sendable {
        /// The sign-in name, an email address (compared case-insensitively).
        public var username: String
        /// Nil for an email-code-only account.
        public var password: String?
        /// The user's object id, the `oid` of its tokens (JSON `object_id`); nil: a random one at start.
        public var objectId: String?
        /// Profile attributes by name, for example `displayName` (the id token's `name`).
        public var attributes: [String: String] = [:]
        /// Second-factor methods already registered (JSON `strong_auth_methods`, default none).
        public var strongAuthMethods: [StrongAuthMethod] = []
        /// The user must pass MFA whatever the app's policy (JSON `mfa_required`, default false).
        public var mfaRequired: Bool = false
        /// V2 first factors in the order sign-in offers them (JSON `first_factors`); nil: `password`
        /// for an account with a password, `email` for one without.
        public var firstFactors: [FirstFactor]?
        /// V2 recovery methods (JSON `recovery_methods`); nil: the sign-in address by email.
        public var recoveryMethods: [RecoveryMethod]?
        /// Every V2 sign-in goes to the browser (JSON `browser_only`, default false); V1 answers the
        /// 200 redirect.
        public var browserOnly = false

        /// A user; `objectId` nil gives a random one at start.
        public init(
            username: String, password: String?, objectId: String? = nil, attributes: [String: String] = [:],
            strongAuthMethods: [StrongAuthMethod] = [], mfaRequired: Bool = false, firstFactors: [FirstFactor]? = nil,
            recoveryMethods: [RecoveryMethod]? = nil, browserOnly: Bool = false
        ) {
            self.username = username
            self.password = password
            self.objectId = objectId
            self.attributes = attributes
            self.strongAuthMethods = strongAuthMethods
            self.mfaRequired = mfaRequired
            self.firstFactors = firstFactors
            self.recoveryMethods = recoveryMethods
            self.browserOnly = browserOnly
        }

        /// The first factors with their default applied.
        public var effectiveFirstFactors: [FirstFactor] { firstFactors ?? (password == nil ? [.email] : [.password]) }

        /// The recovery methods with their default applied.
        public var effectiveRecoveryMethods: [RecoveryMethod] { recoveryMethods ?? [RecoveryMethod(channel: .email, target: username)] }

        enum CodingKeys: String, CodingKey {
            case username, password
            case objectId = "object_id"
            case attributes
            case strongAuthMethods = "strong_auth_methods"
            case mfaRequired = "mfa_required"
            case firstFactors = "first_factors"
            case recoveryMethods = "recovery_methods"
            case browserOnly = "browser_only"
        }
        /// Reads a user from the seed's JSON, absent fields taking their defaults.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            username = try c.decode(String.self, forKey: .username)
            password = try c.decodeIfPresent(String.self, forKey: .password)
            objectId = try c.decodeIfPresent(String.self, forKey: .objectId)
            attributes = try c.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
            strongAuthMethods = try c.decodeIfPresent([StrongAuthMethod].self, forKey: .strongAuthMethods) ?? []
            mfaRequired = try c.decodeIfPresent(Bool.self, forKey: .mfaRequired) ?? false
            firstFactors = try c.decodeIfPresent([FirstFactor].self, forKey: .firstFactors)
            recoveryMethods = try c.decodeIfPresent([RecoveryMethod].self, forKey: .recoveryMethods)
            browserOnly = try c.decodeIfPresent(Bool.self, forKey: .browserOnly) ?? false
        }

        /// What is wrong with the V2 fields (`first_factors`, `recovery_methods`), or nil.
        var v2FieldsProblem: String? {
            if let firstFactors {
                guard !firstFactors.isEmpty else { return "first_factors is empty" }
                guard Set(firstFactors).count == firstFactors.count else { return "first_factors lists a method twice" }
                if firstFactors.contains(.password), password == nil { return "first_factors has password, but the user has none" }
            }
            if let recoveryMethods {
                guard !recoveryMethods.isEmpty else { return "recovery_methods is empty" }
                for method in recoveryMethods {
                    switch method.channel {
                    case .email where !EmulatorRouter.isEmailAddress(method.target):
                        return "recovery method '\(method.target)': target must be an email address"
                    case .sms where EmulatorRouter.normalizedPhoneNumber(method.target) == nil:
                        return "recovery method '\(method.target)': target must be a phone number, + and 8 to 15 digits"
                    default: continue
                    }
                }
            }
            return nil
        }
    }

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

    /// The tenant.
    public var tenant: Tenant
    /// The app registrations; at least one.
    public var apps: [App]
    /// The accounts present at start (more can be added with `POST /_emulator/users`).
    public var users: [User]
    /// The protected web APIs the emulator serves.
    public var apis: [API]

    /// A seed of these parts.
    public init(tenant: Tenant, apps: [App], users: [User], apis: [API]) {
        self.tenant = tenant
        self.apps = apps
        self.users = users
        self.apis = apis
    }

    /// Parses a seed file; errors name the field that is wrong.
    public static func load(from data: Data) throws -> Seed {
        do {
            return try JSONDecoder().decode(Seed.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw EmulatorError(
                "seed: missing field '\((context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "."))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw EmulatorError("seed: wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'")
        } catch let DecodingError.dataCorrupted(context) {
            throw EmulatorError(
                "seed: invalid value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)")
        } catch {
            throw EmulatorError("seed: not valid JSON")
        }
    }

    /// The built-in demo world.
    public static let demo = Seed(
        tenant: Tenant(subdomain: "emulator", id: "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"),
        apps: [
            App(
                clientId: "11111111-1111-4111-8111-111111111111", name: "Demo app (email + password)", signUpMethod: .password,
                attributes: [
                    Attribute(name: "displayName", regex: "^.{1,64}$", label: "Display name"),
                    Attribute(name: "city", required: false, label: "City"),
                ], blockedContacts: ["+15550199"]),
            App(
                clientId: "22222222-2222-4222-8222-222222222222", name: "Demo app (email code only)", signUpMethod: .otp,
                attributes: [Attribute(name: "displayName", regex: "^.{1,64}$", label: "Display name")], blockedContacts: ["+15550199"]),
        ],
        users: [
            User(
                username: "ada@example.com", password: "Analytical-Engine-1843", objectId: "a1a1a1a1-0000-4000-8000-000000000001",
                attributes: ["displayName": "Ada Lovelace"]),
            User(
                username: "grace@example.com", password: nil, objectId: "a1a1a1a1-0000-4000-8000-000000000002",
                attributes: ["displayName": "Grace Hopper"]),
            // MFA with two registered methods.
            User(
                username: "alan@example.com", password: "Turing-Machine-1936", objectId: "a1a1a1a1-0000-4000-8000-000000000003",
                attributes: ["displayName": "Alan Turing"],
                strongAuthMethods: [
                    StrongAuthMethod(id: "7f1c1b0e-0000-4000-8000-00000000a001", channel: .email, target: "alan.backup@example.net"),
                    StrongAuthMethod(id: "7f1c1b0e-0000-4000-8000-00000000a002", channel: .sms, target: "+15550100"),
                ], mfaRequired: true),
            // MFA required but no method yet: registers one (JIT) at the first sign-in.
            User(
                username: "katherine@example.com", password: "Orbital-Mechanics-1962", objectId: "a1a1a1a1-0000-4000-8000-000000000004",
                attributes: ["displayName": "Katherine Johnson"], mfaRequired: true),
            // Native auth V2 (docs/emulator.md#native-auth-v2-experimental): a choice of first factors.
            User(
                username: "barbara@example.com", password: "Substitution-Principle-1987", objectId: "a1a1a1a1-0000-4000-8000-000000000005",
                attributes: ["displayName": "Barbara Liskov"], firstFactors: [.password, .email]),
            // V2: recovery by email or SMS, MFA by email.
            User(
                username: "margaret@example.com", password: "Apollo-Guidance-1969", objectId: "a1a1a1a1-0000-4000-8000-000000000006",
                attributes: ["displayName": "Margaret Hamilton"],
                strongAuthMethods: [
                    StrongAuthMethod(id: "7f1c1b0e-0000-4000-8000-00000000b001", channel: .email, target: "margaret.backup@example.net")
                ], mfaRequired: true,
                recoveryMethods: [
                    RecoveryMethod(channel: .email, target: "margaret@example.com"), RecoveryMethod(channel: .sms, target: "+15550101"),
                ]),
            // V2: always the browser (V1: the 200 redirect).
            User(
                username: "hedy@example.com", password: "Frequency-Hopping-1942", objectId: "a1a1a1a1-0000-4000-8000-000000000007",
                attributes: ["displayName": "Hedy Lamarr"], browserOnly: true),
        ],
        apis: [
            API(
                name: "todolist", appId: "33333333-3333-4333-8333-333333333333", identifierUri: "api://emulator/todolist",
                scopes: ["ToDoList.Read", "ToDoList.ReadWrite"], path: "/api/todolist", requiredScope: "ToDoList.Read"),
            API(
                name: "profile", appId: "44444444-4444-4444-8444-444444444444", identifierUri: "api://emulator/profile/",
                scopes: ["Profile.Read"], path: "/api/profile", requiredScope: "Profile.Read"),
        ])
}

extension Seed: CustomStringConvertible {
    /// A one-line summary: the tenant's subdomain and how many apps, users and APIs.
    public var description: String { "Seed(tenant: \(tenant.subdomain), apps: \(apps.count), users: \(users.count), apis: \(apis.count))" }
}

extension Seed.Tenant {
    enum CodingKeys: String, CodingKey { case subdomain, id }
}
