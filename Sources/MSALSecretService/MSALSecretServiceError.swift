import Foundation

/// The domain of `MSALSecretServiceError` as an `NSError`: what `lastTokenCacheError` and the
/// SDK's calls report when the keyring failed (the message then also says what the SDK was doing).
public let MSALSecretServiceErrorDomain = "MSALSecretServiceErrorDomain"

/// Why the Secret Service (the desktop keyring) could not keep the token cache.
///
/// ```swift
/// // given: app: MSALNativeAuthPublicClientApplication
/// if let error = app.lastTokenCacheError, error.domain == MSALSecretServiceErrorDomain,
///     error.code == MSALSecretServiceError.Code.keyringLocked.rawValue {
///     // ask the user to unlock the keyring, or use a file
/// }
/// ```
public struct MSALSecretServiceError: Error, CustomNSError, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure, as `NSError` codes of `MSALSecretServiceErrorDomain`.
    public enum Code: Int, Sendable {
        /// No D-Bus session bus (headless, SSH without a desktop), no Secret Service on it, or no
        /// default keyring: nothing to keep secrets in. Use a file store instead.
        case secretServiceUnavailable = 1
        /// The keyring is locked and stayed locked: the user declined to unlock it, or no unlock
        /// prompt could be shown.
        case keyringLocked = 2
        /// The schema name or the attributes cannot be used (empty, a NUL character, `xdg:schema`).
        case invalidConfiguration = 3
        /// The Secret Service answered an operation with an error.
        case operationFailed = 4
    }

    public let code: Code
    /// What went wrong, for people and logs; never contains the secret.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "MSALSecretServiceError.\(code): \(message)" }

    public static var errorDomain: String { MSALSecretServiceErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}
