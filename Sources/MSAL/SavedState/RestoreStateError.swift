import Foundation

/// Why `restoreState(serialized:)` could not restore a saved flow state. A Linux addition, in the
/// shape of MSAL's error classes: read `errorDescription` and the `isXxx` flags. Nothing was sent
/// to the service; start the flow again (docs/saved-states.md#errors).
public final class RestoreStateError: MSALNativeAuthError, @unchecked Sendable {
    /// Not a saved flow state: not JSON, cut short, too large, or a member missing or wrong.
    public var isMalformed: Bool { type == .stateMalformed }
    /// Saved by a newer SDK, in a format version this one cannot read.
    public var isUnsupportedVersion: Bool { type == .stateUnsupportedVersion }
    /// Its continuation token was issued longer ago than the service keeps one (10 minutes).
    public var isExpired: Bool { type == .stateExpired }
    /// Saved by an application with another client id or authority.
    public var isWrongApplication: Bool { type == .stateWrongApplication }
    /// A state of another kind than the one `restoreState(serialized:as:)` was asked for.
    public var isWrongKind: Bool { type == .stateWrongKind }

    package init(_ failure: RestoreFailure, correlationId: UUID) {
        let (kind, message): (ErrorType, String) =
            switch failure {
            case .malformed(let text): (.stateMalformed, text)
            case .unsupportedVersion(let text): (.stateUnsupportedVersion, text)
            case .expired(let text): (.stateExpired, text)
            case .wrongApplication(let text): (.stateWrongApplication, text)
            case .wrongKind(let text): (.stateWrongKind, text)
            }
        super.init(type: kind, NativeAuthErrorDetails(message: "Cannot restore the flow state: \(message)", correlationId: correlationId))
    }
}
