import Foundation

/// Everything the emulator remembers, guarded by one lock in `EmulatorRouter`.
struct EmulatorWorld {
    var users: [String: UserRecord] = [:]
    var flows: [String: Flow] = [:]
    var tokens: [String: TokenRecord] = [:]
    var mailbox: [String: [Mail]] = [:]
    var refreshTokens: [String: RefreshRecord] = [:]
    var faults: [Fault] = []
    var requestLog: [LoggedRequest] = []
    var clockOffset: TimeInterval = 0
    var flowOrder: [String] = []
    /// Entries of `flowOrder` before this index are already swept.
    var flowHead = 0
    /// Browser sign-in (authorize page, codes, SSO sessions): see `BrowserState`.
    var browser = BrowserState()
    /// Native auth V2 flows, tokens, codes and hook settings: see `V2State`.
    var v2 = V2State()
}

struct UserRecord {
    var username: String
    var objectId: String
    var password: PasswordHash?
    var attributes: [String: String]
    var strongAuthMethods: [Seed.StrongAuthMethod] = []
    var mfaRequired = false
    /// Native auth V2 (Sources/NativeAuthEmulator/V2): first factors, recovery methods, browser only.
    var firstFactors: [Seed.FirstFactor] = [.password]
    var recoveryMethods: [Seed.RecoveryMethod] = []
    var browserOnly = false
}

extension UserRecord {
    /// The record of a seeded or added user, its password hashed and its V2 defaults applied.
    init(_ user: Seed.User, passwordHashIterations: Int) {
        self.init(
            username: user.username, objectId: user.objectId ?? UUID().uuidString.lowercased(),
            password: user.password.map { PasswordHash(password: $0, iterations: passwordHashIterations) },
            attributes: user.attributes, strongAuthMethods: user.strongAuthMethods, mfaRequired: user.mfaRequired,
            firstFactors: user.effectiveFirstFactors, recoveryMethods: user.effectiveRecoveryMethods, browserOnly: user.browserOnly)
    }

    /// An account sign-up creates (V1 or V2), with the V2 defaults of a seeded user: first factor `password`
    /// (or `email` without one), recovery by the sign-in address.
    init(newAccount username: String, password: PasswordHash?, attributes: [String: String]) {
        self.init(
            username: username, objectId: UUID().uuidString.lowercased(), password: password, attributes: attributes,
            firstFactors: password == nil ? [.email] : [.password],
            recoveryMethods: [Seed.RecoveryMethod(channel: .email, target: username)])
    }
}

/// The one-time code of a flow.
struct OneTimeCode {
    var code: String
    var expiresAt: Date
}

enum FlowKind: String {
    case signIn = "sign_in"
    case signUp = "sign_up"
    case resetPassword = "reset_password"
}

/// Why a code was sent (the mailbox's `purpose`).
enum CodePurpose: String {
    case signIn = "sign_in"
    case signUp = "sign_up"
    case resetPassword = "reset_password"
    /// A second-factor code to a registered strong-auth method.
    case mfa
    /// A code proving a contact during strong-auth registration (JIT).
    case registration
    /// A code typed on the browser sign-in page.
    case browserSignIn = "browser_sign_in"
}

/// Where a flow stands; each continuation token is bound to one step.
enum FlowStep: Equatable {
    case signInInitiated
    case signInPasswordChallenge
    case signInOOBChallenge
    case signUpStarted
    case signUpCodeSent
    case signUpCredentialRequired
    case signUpPasswordRequested
    case signUpAttributesRequired
    case resetStarted
    case resetCodeSent
    case resetVerified
    case resetSubmitted
    /// The first factor passed and MFA is needed (the `mfa_required` token, for introspect).
    case mfaRequired
    /// The methods were listed; a challenge with `id` sends a code.
    case mfaIntrospected
    /// A second-factor code was sent (for `mfa_oob`, or another challenge to resend).
    case mfaCodeSent
    /// The first factor passed; the user has no method and must register one (JIT).
    case registrationRequired
    /// The registration methods were listed; `/register/v1.0/challenge` takes a contact.
    case registrationIntrospected
    /// A contact was challenged (code sent, or preverified); `/register/v1.0/continue` proves it.
    case registrationChallenged
    /// A method was registered; the token signs the user in without a further factor.
    case registrationCompleted
    /// The flow succeeded; its token signs the user in with `grant_type=continuation_token`.
    case signInAfter
    case finished
}

struct Flow {
    var id: String
    var kind: FlowKind
    var clientId: String
    var username: String
    var step: FlowStep
    /// Bumped whenever the flow moves past a step, which retires that step's tokens.
    var generation = 0
    var createdAt: Date
    var code: OneTimeCode?
    var codeAttempts = 0
    var passwordAttempts = 0
    // Sign-up
    var pendingPassword: PasswordHash?
    var pendingAttributes: [String: String] = [:]
    var emailVerified = false
    // Password reset
    var newPassword: PasswordHash?
    var pollsRemaining = 0
    /// Known `capabilities` the client sent at the start of the flow (`mfa_required`, `registration_required`).
    var capabilities: Set<String> = []
    // MFA and strong-auth registration
    var mfaMethodId: String?
    /// Authentication contexts (`acrs`) the token request asked for when the first factor passed;
    /// the tokens issued after the second factor carry them.
    var requestedAcrs: [String] = []
    var registrationChannel: Seed.StrongAuthMethod.Channel?
    var registrationTarget: String?
    var registrationPreverified = false
}

struct TokenRecord {
    var flowId: String
    var step: FlowStep
    var generation: Int
    var expiresAt: Date
}

struct Mail {
    /// The account's username (the mailbox's key).
    var to: String
    var code: String
    var purpose: CodePurpose
    var sentAt: Date
    /// `email` or `sms`.
    var channel: String = "email"
    /// Where the code went: the address or phone number.
    var target: String
    /// `v2` for a code a native auth V2 flow sent; nil for V1 (the mailbox hook then omits `api`).
    var api: String?
}

struct RefreshRecord {
    var username: String
    var clientId: String
    var expiresAt: Date
    /// Where the token came from (authorization code, satisfied auth contexts), kept on rotation.
    var lineage = TokenLineage()
}

/// One injected fault (see `POST /_emulator/faults`).
struct Fault {
    var endpoint: String
    var status: Int?
    var retryAfter: String?
    var delayMilliseconds: Int
    var body: BodyKind?
    var dropConnection: Bool
    /// With a 3xx `status`: the `Location` the answer points at (a redirect to another host).
    var location: String? = nil
    /// Remaining uses; nil means every matching request.
    var remaining: Int?

    enum BodyKind: String {
        case truncated
        case invalidJSON = "invalid_json"
        case empty, html, oversize
    }

    func matches(_ endpoint: String, fullPath: String) -> Bool {
        self.endpoint == "*" || self.endpoint == endpoint || fullPath.hasSuffix(self.endpoint)
    }
}

struct LoggedRequest {
    var method: String
    var path: String
    var endpoint: String
    var fields: [String: String]
    var clientRequestId: String?
    var status: Int
    var at: Date
}
