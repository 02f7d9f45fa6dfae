import Foundation
import MSAL

/// The keyring token store, which `native-auth` links with libsecret and GLib loaded at its first
/// call (they would cost a plain `token` about 2 ms of loading; docs/cli.md#the-keyring).
public protocol KeyringStore: Sendable {
    /// The token cache in the Secret Service for `clientId`; errors are the store's own.
    func location(clientId: String, signalFile: URL) throws -> MSALNativeAuthTokenCacheLocation
}

/// How this executable gets the keyring when `--keyring` (or `"token_cache": "keyring"`) asks for it.
public enum KeyringSupport: Sendable {
    /// Linked into this executable.
    case linked(any KeyringStore)
    /// Not available (in-process tests).
    case unavailable
}
