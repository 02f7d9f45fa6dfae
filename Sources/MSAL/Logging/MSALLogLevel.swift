/// How much the SDK logs, from nothing to everything. Mirrors MSAL's `MSALLogLevel`.
public enum MSALLogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    case nothing = 0
    case error = 1
    case warning = 2
    case info = 3
    case verbose = 4

    /// Orders levels by how much they let through: `.nothing` is the lowest, `.verbose` the highest.
    public static func < (lhs: MSALLogLevel, rhs: MSALLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name in capitals, for example `WARNING`.
    public var description: String {
        switch self {
        case .nothing: return "NOTHING"
        case .error: return "ERROR"
        case .warning: return "WARNING"
        case .info: return "INFO"
        case .verbose: return "VERBOSE"
        }
    }
}
