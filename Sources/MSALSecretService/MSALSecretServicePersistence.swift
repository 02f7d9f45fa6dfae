import Foundation
import MSAL

/// The token cache as one secret in the desktop keyring, through the Secret Service (GNOME
/// Keyring, KWallet) with libsecret: the whole unified-schema document is the secret of one item
/// found by a schema name and attributes that the app chooses.
///
/// With the schema name, attributes and signal file of an msal-extensions
/// `LibsecretPersistence(signal_location, schema_name, attributes)`, an app written with MSAL for
/// Python reads and writes the same item, and the two exclude each other through the same lock
/// file (`<signal file>.lockfile`).
///
/// ```swift
/// // given: config: MSALNativeAuthPublicClientApplicationConfig
/// let keyring = try MSALSecretServicePersistence(
///     schemaName: "com.contoso.todo.tokens", attributes: ["app": "contoso-todo"],
///     signalFile: URL(fileURLWithPath: NSHomeDirectory() + "/.local/share/contoso-todo/token_cache.signal"))
/// config.tokenCacheLocation = .persistence(keyring)
/// ```
///
/// Or, falling back to the file store when there is no usable keyring (headless, SSH):
/// `config.tokenCacheLocation = .secretService(schemaName:attributes:signalFile:orFallback:)`.
public final class MSALSecretServicePersistence: MSALTokenCachePersistence {
    /// The schema name (libsecret stores it as the attribute `xdg:schema`).
    public let schemaName: String
    /// The attributes that find the item, all strings.
    public let attributes: [String: String]
    public let signalFile: URL
    /// The item's label, as keyring managers (Seahorse) show it.
    public let label: String
    private let client: SecretServiceClient

    /// Throws `MSALSecretServiceError.Code.invalidConfiguration` for an empty schema name or
    /// attribute name, a NUL character, or the reserved attribute `xdg:schema`. Nothing is asked
    /// of the Secret Service yet.
    public init(schemaName: String, attributes: [String: String], signalFile: URL, label: String = "MSAL token cache") throws {
        guard !schemaName.isEmpty, !schemaName.contains("\0") else {
            throw MSALSecretServiceError(.invalidConfiguration, "The schema name must be a non-empty string without NUL characters")
        }
        for (name, value) in attributes {
            guard !name.isEmpty, !name.contains("\0"), !value.contains("\0") else {
                throw MSALSecretServiceError(.invalidConfiguration, "Attribute names must be non-empty, and names and values free of NUL")
            }
            guard name != "xdg:schema" else {
                throw MSALSecretServiceError(.invalidConfiguration, "The attribute xdg:schema is libsecret's own; set schemaName instead")
            }
        }
        guard signalFile.isFileURL, !signalFile.path.isEmpty else {
            throw MSALSecretServiceError(.invalidConfiguration, "The signal file must be a file URL")
        }
        self.schemaName = schemaName
        self.attributes = attributes
        self.signalFile = signalFile
        self.label = label.contains("\0") ? "MSAL token cache" : label
        client = SecretServiceClient(schemaName: schemaName, attributes: attributes)
    }

    /// `the Secret Service (schema "…", attributes a, b)`: attribute names only, since values may
    /// name the user.
    public var storeDescription: String {
        "the Secret Service (schema \"\(schemaName)\", attributes \(attributes.keys.sorted().joined(separator: ", ")))"
    }

    /// The secret's bytes, or nil when there is no item. Throws `MSALSecretServiceError`.
    public func load() throws -> Data? { try client.lookup() }

    /// Stores `data` as the item's secret (text), replacing the previous one. Throws `MSALSecretServiceError`.
    public func save(_ data: Data) throws { try client.store(data, label: label) }

    /// Keeps `data` under the schema `<schemaName>.corrupt` with the same attributes and
    /// `msal_set_aside=<time>`, then removes the item. Throws `MSALSecretServiceError`.
    public func setAside(_ data: Data) throws -> String { try client.setAside(data, label: label) }

    /// Deletes the item (every token of every account in it; MSAL for Python's too when shared).
    /// True when there was one. Throws `MSALSecretServiceError`.
    @discardableResult
    public func remove() throws -> Bool { try client.remove() }

    /// Succeeds when the Secret Service answers and the default keyring exists and is unlocked
    /// (unlocking it may show the desktop's prompt). Throws `MSALSecretServiceError`.
    public func checkAvailable() throws { try client.checkUsable() }

    /// Locks the default keyring, as the user or a screen lock would. For tests.
    package func lockKeyringForTesting() throws { try client.lockDefaultCollection() }
}
