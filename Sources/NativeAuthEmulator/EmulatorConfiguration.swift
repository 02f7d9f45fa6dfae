import Foundation

/// The emulator's tunable behaviour. Every duration is in seconds of the emulator's own clock,
/// which tests move forward with `POST /_emulator/clock`.
public struct EmulatorConfiguration: Sendable {
    /// Lifetime of access and id tokens. Default 3600.
    public var accessTokenLifetime: Int = 3600
    /// Lifetime of refresh tokens. Default 90 days.
    public var refreshTokenLifetime: Int = 90 * 24 * 3600
    /// Strict rotation: a refresh token stops working once it has been redeemed, so a client that
    /// sends one twice (two refreshes at once, a stale copy) gets `invalid_grant`. Default false:
    /// as Entra does, a redeemed refresh token stays valid until it expires or is revoked (a new
    /// password, `DELETE /_emulator/sessions`, a replayed authorization code).
    public var strictRefreshTokenRotation: Bool = false
    /// Digits in a one-time code. Default 8, as in every documented sample.
    public var codeLength: Int = 8
    /// Seconds a one-time code stays valid. Default 600.
    public var codeLifetime: Int = 600
    /// Wrong codes accepted before the flow is ended. Default 5.
    public var maxCodeAttempts: Int = 5
    /// Wrong passwords accepted in one sign-in flow before it is ended. Default 10.
    public var maxPasswordAttempts: Int = 10
    /// Seconds a continuation token stays valid. Default 600.
    public var continuationTokenLifetime: Int = 600
    /// `in_progress` answers to password-reset polls before `succeeded`. Default 0.
    public var resetPasswordPollsInProgress: Int = 0
    /// `poll_interval` returned by `/resetpassword/v1.0/submit`. Default 2 (the documented sample).
    public var resetPasswordPollInterval: Int = 2
    /// `interval` returned with a code challenge. Default 300 (the documented sample).
    public var resendInterval: Int = 300
    /// PBKDF2 iterations for stored passwords. Default 10,000: slow enough to be a real hash,
    /// fast enough for load tests on two cores.
    public var passwordHashIterations: Int = 10_000
    /// Request bodies larger than this are refused with 413. Default 64 KiB.
    public var maxRequestBodyBytes: Int = 64 * 1024
    /// Flows kept at most; the oldest are dropped first when more start. Default 100,000.
    public var maxFlows: Int = 100_000
    /// Refresh tokens kept at most; past it, expired ones go first, then those expiring soonest
    /// (a client holding one gets `invalid_grant` and signs in again). Default 100,000.
    public var maxRefreshTokens: Int = 100_000
    /// Entries kept in the request log (oldest dropped first). Default 10,000.
    public var maxRequestLogEntries: Int = 10_000

    /// Seconds an authorization code (browser sign-in) stays redeemable. Default 600.
    public var authorizationCodeLifetime: Int = 600
    /// Seconds a sign-in page (its hidden `flow`) stays usable. Default 600.
    public var authorizePageLifetime: Int = 600
    /// Seconds the browser's SSO session (cookie) lasts. Default 24 hours.
    public var browserSessionLifetime: Int = 24 * 3600

    /// The defaults given with each property.
    public init() {}
}
