import Foundation

/// Keeps the bytes of the token cache document somewhere other than a plain file, for example in
/// the desktop keyring (`MSALSecretServicePersistence` of the `MSALSecretService` product). Give
/// one to `tokenCacheLocation = .persistence(_:)`.
///
/// A persistence only moves bytes. The SDK does the rest, once for every persistence, as the file
/// store does it and as msal-extensions' `PersistedTokenCache` does:
///
/// - Every read-merge-write holds the lock file `<signalFile>.lockfile` (created exclusively, as
///   msal-extensions' cross-platform lock), so processes sharing the entry lose nothing.
/// - After every save the SDK replaces `signalFile`; its `stat` tells other processes (and
///   msal-extensions, which touches the same file) that the document changed. Reads compare it
///   and go to the store only when it changed.
/// - A document that cannot be parsed (or is larger than 64 MiB) is handed to `setAside(_:)`,
///   reported in `lastTokenCacheError` and the log, and the cache starts empty.
///
/// Errors thrown here reach the app unchanged (as `NSError`s in their own domain) through
/// `lastTokenCacheError` and the calls that needed the cache. Implementations must never put the
/// secret in an error message or a description.
public protocol MSALTokenCachePersistence: AnyObject, Sendable {
    /// A file beside the entry, whose replacement signals a change (msal-extensions'
    /// `signal_location`); its directory also holds the lock file. Created by the SDK.
    var signalFile: URL { get }

    /// What the store is, for logs and error messages (for example
    /// `the Secret Service (schema "com.contoso.app")`). Never the secret.
    var storeDescription: String { get }

    /// The stored document, or nil when nothing is stored yet.
    func load() throws -> Data?

    /// Replaces the stored document with `data`.
    func save(_ data: Data) throws

    /// Moves the unusable stored document `data` out of the way without deleting it, so that a
    /// new one can be saved; returns where it went, for the error message.
    func setAside(_ data: Data) throws -> String
}
