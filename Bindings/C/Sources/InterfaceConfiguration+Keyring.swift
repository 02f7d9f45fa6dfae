import Foundation
import MSAL

/// The `keyring` object of the configuration, with `"cache": "keyring"`:
///
///     {"schema_name": "com.contoso.todo.tokens", "attributes": {"app": "contoso-todo"},
///      "signal_file": "/home/ada/.local/share/contoso-todo/token_cache.signal",
///      "label": "Contoso tokens", "fallback": "none"}
///
/// `schema_name` and `signal_file` (an absolute path) are required; `attributes` (strings) default
/// to none, `label` to "MSAL token cache". `fallback`: `"none"` (default: an unusable keyring is
/// `MSAL_NA_ERR_KEYRING_UNAVAILABLE` or `_LOCKED` from `msal_na_app_create`) or `"file"` (the
/// `cache_file`, else the default file, with a warning in the log), as the `MSALSecretService`
/// product's `.persistence` and `.secretService(…orFallback:)`.
struct KeyringSettings: Sendable {
    var schemaName: String
    var attributes: [String: String] = [:]
    var signalFile: String
    var label = "MSAL token cache"
    var fallbackToFile = false

    static let known: Set<String> = ["schema_name", "attributes", "signal_file", "label", "fallback"]

    static func parse(_ raw: Any?, selected: Bool) throws(InterfaceError) -> KeyringSettings? {
        guard let raw else {
            if selected { throw problem("\"cache\": \"keyring\" needs a 'keyring' object with 'schema_name' and 'signal_file'") }
            return nil
        }
        guard selected else { throw problem("field 'keyring' is used only with \"cache\": \"keyring\"") }
        guard let object = raw as? [String: Any] else { throw problem("field 'keyring' must be a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem("unknown field 'keyring.\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let schema = object["schema_name"] as? String, !schema.isEmpty, !schema.contains("\0") else {
            throw problem("field 'keyring.schema_name' must be a non-empty string without NUL")
        }
        guard let signal = object["signal_file"] as? String, signal.hasPrefix("/"), !signal.contains("\0") else {
            throw problem("field 'keyring.signal_file' must be an absolute path")
        }
        var settings = KeyringSettings(schemaName: schema, signalFile: signal)
        if let raw = object["attributes"] {
            guard let map = raw as? [String: Any], let attributes = map as? [String: String] else {
                throw problem("field 'keyring.attributes' must be a JSON object of strings")
            }
            guard !attributes.keys.contains(where: { $0.isEmpty || $0 == "xdg:schema" }) else {
                throw problem("field 'keyring.attributes' has an empty name or 'xdg:schema' (libsecret's own: set schema_name)")
            }
            guard !attributes.contains(where: { $0.key.contains("\0") || $0.value.contains("\0") }) else {
                throw problem("field 'keyring.attributes' has a NUL character")
            }
            settings.attributes = attributes
        }
        if let raw = object["label"] {
            guard let label = raw as? String, !label.isEmpty, !label.contains("\0") else {
                throw problem("field 'keyring.label' must be a non-empty string without NUL")
            }
            settings.label = label
        }
        if let raw = object["fallback"] {
            guard let fallback = raw as? String, fallback == "none" || fallback == "file" else {
                throw problem("field 'keyring.fallback' must be \"none\" or \"file\"")
            }
            settings.fallbackToFile = fallback == "file"
        }
        return settings
    }

    private static func problem(_ text: String) -> InterfaceError {
        InterfaceConfiguration.problem(text)
    }

    /// The keyring, checked usable now (the desktop may prompt to unlock it); else `fallback` when
    /// the settings allow it, or the keyring's error.
    func location(fallback: MSALNativeAuthTokenCacheLocation) throws(InterfaceError) -> MSALNativeAuthTokenCacheLocation {
        let persistence: KeyringPersistence
        do {
            persistence = try KeyringPersistence(
                schemaName: schemaName, attributes: attributes, signalFile: URL(fileURLWithPath: signalFile), label: label)
            try persistence.checkAvailable()
        } catch {
            let problem = AccountDirectory.cacheProblem(error as NSError)
            guard fallbackToFile else { throw problem }
            MSALGlobalConfig.loggerConfig.warning(
                "Token cache: the keyring cannot be used (\(problem.message)); using the token cache file")
            return fallback
        }
        return .persistence(persistence)
    }
}
