import Foundation

/// The apps of a seed (docs/emulator.md): an app registration, the attributes it collects at sign-up
/// and its user-flow switches.
extension Seed {
    /// The app registered as `clientId`, compared case-insensitively as the service compares client ids.
    func app(clientId: String) -> App? {
        apps.first { $0.clientId.lowercased() == clientId.lowercased() }
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
}
