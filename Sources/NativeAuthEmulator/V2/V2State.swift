import Foundation

/// What the emulator remembers of native auth V2 (docs/protocol.md#native-auth-v2-experimental), kept in
/// `EmulatorWorld.v2` beside V1's flows: V2 flows and their continuation tokens, the authorization codes
/// the resume issues, and the `/_emulator/v2` settings. Users, mailbox, clock and refresh tokens are V1's.
struct V2State {
    var settings = V2Settings()
    var flows: [String: V2Flow] = [:]
    var tokens: [String: V2TokenRecord] = [:]
    var codes: [String: V2AuthorizationCode] = [:]
}

/// The options `POST /_emulator/v2` sets (docs/emulator.md#native-auth-v2-experimental).
struct V2Settings {
    /// How hrefs are written.
    enum HrefStyle: String, CaseIterable {
        /// `/T/api/v2.0/…`, the tenant segment as the client wrote it (default).
        case relative
        /// `scheme://host:port/T/api/v2.0/…`.
        case absolute
        /// `/{tenant}/api/v2.0/…` with `templated: true`, as some SDK fixtures write them.
        case templated
    }

    /// The version segment of the hrefs (`v2.0`; `v0.1` as in SDK fixtures). `v2.0` is always served too.
    var apiSegment = "v2.0"
    var hrefStyle = HrefStyle.relative
    /// `poll` answers before `continue` after a new password (reset and inline recovery).
    var pollInProgress = 1
    /// `pollInterval` on poll answers; nil: none sent.
    var pollIntervalMs: Int?
    /// Overrides every app's `sms_risk_verification`; nil: the app's.
    var smsRiskVerification: Seed.SMSRiskVerification?
    /// Usernames whose V2 sign-in goes to the browser (compared case-insensitively).
    var webFallbackFor: [String] = []
}

/// Where a V2 flow stands. Each continuation token is bound to one step (and the flow's generation).
enum V2Step: String {
    /// The entry's token: a journey may start.
    case entry
    /// First factors listed; a method's `challenge` picks one.
    case firstFactor
    /// A password is asked for (`verify` with `password`).
    case password
    /// A code was sent (`verify` with `otp`; `challenge` again resends).
    case code
    /// Second-factor methods listed; a method's `challenge` picks one.
    case mfa
    /// A risk check of the phone is due before the SMS (`risk/phone/verify`). Shares the generation of
    /// the step it came from, so a blocked phone leaves the selection usable.
    case risk
    /// The user must register a second-factor method (JIT): `auth/methods/{type}/register`.
    case registration
    /// A contact being registered got a code: `activate` (or `challenge` to resend).
    case activate
    /// Sign-up asks for the email address (`collectAttributes`, `signup/submitattributes`).
    case signUpEmail
    /// Sign-up asks for the password (password apps) and the app's attributes (`signup/submitattributes`).
    case signUpAttributes
    /// Recovery methods listed (reset or inline recovery); a method's `challenge` picks one.
    case recovery
    /// The account is proved: `PUT auth/methods/password/{id}` with `newPassword`.
    case newPassword
    /// The new password is being applied: `POST auth/methods/password/{id}/pollUpdate`.
    case poll
    /// `state: continue`: the token resumes at the authorize-challenge endpoint.
    case resume
}

/// Which journey a V2 flow is: the `scenario` of its answers and what its `continue` means.
enum V2Journey {
    case signIn, signUp, resetPassword
}

/// An attribute descriptor of a `collectAttributes` answer (docs/protocol.md#native-auth-v2-experimental).
struct V2Attribute {
    var id: String
    /// `text`, `password`, `boolean`, `date`, … (the seed's `string` is `text`).
    var inputType = "text"
    var required = true
    var label: String
    var regex: String?
    /// `retype` for the password.
    var confirmationInput: String?
}

/// A method offered or being verified in a V2 flow.
struct V2Method {
    /// What the method is for in the flow: which code purpose, step and answer it leads to.
    enum Role {
        /// `firstFactor`: sign-in; `signUp`: the new address being verified; `recovery`: reset and inline
        /// recovery (the password method listed there only names the `update` route).
        case firstFactor, mfa, registration, signUp, recovery
    }

    /// Opaque: random per flow for first factors and contacts being registered, the strong-auth method's id for MFA.
    var id: String
    /// `password`, `email` or `sms`.
    var type: String
    /// Where codes go; nil for `password` and for a registration method without a contact yet.
    var target: String?
    var role: Role
    /// The seed marks the strong-auth method blocked.
    var blocked = false
}

/// One V2 journey from the entry to the resume.
struct V2Flow {
    var id: String
    var clientId: String
    var createdAt: Date
    var step: V2Step = .entry
    /// Bumped when the flow moves to another step, which retires the tokens of the earlier one.
    var generation = 0
    // What the entry asked for, applied at the token exchange.
    var scope: String?
    var acrs: [String] = []
    var codeChallenge: String?
    var codeChallengeMethod: String?
    /// Set by `signin/start`.
    var username: String?
    /// The methods of the last list sent (first factors, MFA or registration), in server order.
    var methods: [V2Method] = []
    /// The method being verified (password or code) or registered.
    var current: V2Method?
    /// The method whose SMS waits for the risk hop.
    var riskPending: V2Method?
    var code: OneTimeCode?
    var codeAttempts = 0
    var passwordAttempts = 0
    /// The second factor passed (MFA or registration): the tokens carry the requested `acrs`.
    var secondFactorPassed = false
    var journey = V2Journey.signIn
    /// A sign-in's password method posted `recover`: the recovery steps run inside the sign-in.
    var inlineRecovery = false
    /// Sign-up: the descriptors of the last `collectAttributes`, and the values received so far.
    var asked: [V2Attribute] = []
    var pendingAttributes: [String: String] = [:]
    var pendingPassword: PasswordHash?
    /// Reset: the password method whose `update` and `pollUpdate` routes the flow uses, the new password
    /// (applied when the polls are over) and the `poll` answers still to give.
    var passwordMethod: V2Method?
    var newPassword: PasswordHash?
    var pollsRemaining = 0

    /// The answers' `scenario`: `signin`, `signup`, or `recovery` (reset, inline recovery).
    var scenario: String {
        switch journey {
        case .signIn: inlineRecovery ? "recovery" : "signin"
        case .signUp: "signup"
        case .resetPassword: "recovery"
        }
    }
}

struct V2TokenRecord {
    var flowId: String
    var step: V2Step
    var generation: Int
    var expiresAt: Date
}

/// A code the V2 resume issued, redeemed with `grant_type=authorization_code` (no `redirect_uri`).
struct V2AuthorizationCode {
    var id: String
    var clientId: String
    var username: String
    var scope: String?
    /// Authentication contexts the sign-in satisfied (asked for and proved by a second factor).
    var acrs: [String]
    var codeChallenge: String?
    var codeChallengeMethod: String?
    var issuedAt: Date
    var redeemed = false
}
