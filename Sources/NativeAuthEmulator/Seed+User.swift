import Foundation

/// The users of a seed (docs/emulator.md): an account, its strong-auth and recovery methods and its
/// native auth V2 first factors.
extension Seed {
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
}
