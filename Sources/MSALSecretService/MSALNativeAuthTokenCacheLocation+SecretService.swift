import Foundation
import MSAL

extension MSALNativeAuthTokenCacheLocation {
    /// The one line for a desktop app that prefers the keyring: `.persistence` of an
    /// `MSALSecretServicePersistence` when the Secret Service is usable now (it answers, and the
    /// default keyring exists and is unlocked, or gets unlocked at the desktop's prompt), else
    /// `fallback` (the default file store unless said otherwise). Logs which, and why, through
    /// `logger`; the application logs the store it then uses when it is created.
    ///
    /// ```swift
    /// // given: config: MSALNativeAuthPublicClientApplicationConfig
    /// config.tokenCacheLocation = .secretService(
    ///     schemaName: "com.contoso.todo.tokens", attributes: ["app": "contoso-todo"],
    ///     signalFile: URL(fileURLWithPath: NSHomeDirectory() + "/.local/share/contoso-todo/token_cache.signal"))
    /// ```
    ///
    /// An invalid schema name or attributes are a programming error: they fall back too, logged as an error.
    public static func secretService(
        schemaName: String, attributes: [String: String], signalFile: URL, label: String = "MSAL token cache",
        orFallback fallback: MSALNativeAuthTokenCacheLocation = .default, logger: MSALLoggerConfig = MSALGlobalConfig.loggerConfig
    ) -> MSALNativeAuthTokenCacheLocation {
        let persistence: MSALSecretServicePersistence
        do {
            persistence = try MSALSecretServicePersistence(
                schemaName: schemaName, attributes: attributes, signalFile: signalFile, label: label)
        } catch {
            logger.error("Token cache: the keyring settings are invalid (\(error)); using \(fallback.summary)")
            return fallback
        }
        do {
            try persistence.checkAvailable()
        } catch {
            logger.warning(
                "Token cache: \(persistence.storeDescription) cannot be used (\((error as NSError).localizedDescription)); using \(fallback.summary)"
            )
            return fallback
        }
        logger.info("Token cache: using \(persistence.storeDescription)")
        return .persistence(persistence)
    }

    /// Which store, for the log (no paths: they may name the user).
    var summary: String {
        switch self {
        case .default: return "the default token cache file"
        case .file: return "the token cache file"
        case .inMemory: return "memory only"
        case .persistence(let persistence): return persistence.storeDescription
        case .entryStore(let store, _): return store.storeDescription
        }
    }
}
