/// The app's log callback: level, the message, and whether the message contains personal data
/// (it only can when `piiEnabled` is true).
public typealias MSALLogCallback = @Sendable (_ level: MSALLogLevel, _ message: String?, _ containsPII: Bool) -> Void

/// Where SDK log lines go and how much they may say. Mirrors MSAL's `MSALLoggerConfig`.
///
/// Personal data and secrets (usernames, passwords, one-time codes, continuation tokens, tokens) are
/// masked as `Masked(not-null)` unless the app sets `piiEnabled`. No callback, no output.
///
/// ```swift
/// MSALGlobalConfig.loggerConfig.logLevel = .verbose
/// MSALGlobalConfig.loggerConfig.setLogCallback { level, message, _ in
///     FileHandle.standardError.write(Data("[\(level)] \(message ?? "")\n".utf8))
/// }
/// ```
public final class MSALLoggerConfig: Sendable {
    private struct State {
        var level: MSALLogLevel = .info
        var piiEnabled = false
        var callback: MSALLogCallback?
    }

    private let state = Locked(State())

    /// A logger configuration of its own (for example one per application in tests).
    public init() {}

    /// The most detailed level delivered to the callback. Default `.info`.
    public var logLevel: MSALLogLevel {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    /// When true, log lines show personal data and secrets instead of masking them. Default false.
    public var piiEnabled: Bool {
        get { state.withLock { $0.piiEnabled } }
        set { state.withLock { $0.piiEnabled = newValue } }
    }

    /// Sets (or with nil removes) the callback that receives every log line.
    public func setLogCallback(_ callback: MSALLogCallback?) {
        state.withLock { $0.callback = callback }
    }

    package func emit(_ level: MSALLogLevel, _ message: @autoclosure () -> LogMessage) {
        let (threshold, pii, callback) = state.withLock { ($0.level, $0.piiEnabled, $0.callback) }
        guard level != .nothing, level <= threshold, let callback else { return }
        let built = message()
        let text = built.render(piiEnabled: pii)
        callback(level, text, pii && built.containsPII)
    }
}

/// The SDK-wide settings, as in MSAL.
public enum MSALGlobalConfig {
    /// The logger used by every application whose configuration does not name its own.
    public static let loggerConfig = MSALLoggerConfig()
}
