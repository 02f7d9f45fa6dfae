import Foundation
import MSAL
import MSALSecretService

#if canImport(Glibc)
    import Glibc
#endif

/// A helper for the keyring tests (not shipped as a product). The item is schema SCHEMA with the
/// attribute `app` = APP, and signal file SIGNAL, as an msal-extensions `LibsecretPersistence`.
///
///     msal-keyring-helper write SIGNAL SCHEMA APP PREFIX COUNT   COUNT locked updates adding PREFIX-0…
///     msal-keyring-helper clear SIGNAL SCHEMA APP                one locked update removing every credential
///     msal-keyring-helper locked SIGNAL SCHEMA APP               stores, locks the keyring, then prints
///                                                                what load, save and the SDK report
///     msal-keyring-helper probe SIGNAL SCHEMA APP                prints what load and the SDK report
///     msal-keyring-helper fallback SIGNAL SCHEMA APP FILE        prints the store `.secretService(…,
///                                                                orFallback: .file(FILE))` chose, and its log
///
/// Errors print as `error <domain> <code> <message>`.
@main
struct KeyringHelper {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 5 else {
            FileHandle.standardError.write(Data("usage: msal-keyring-helper write|locked|probe|fallback SIGNAL SCHEMA APP [...]\n".utf8))
            exit(2)
        }
        let signal = URL(fileURLWithPath: arguments[2])
        let schema = arguments[3]
        let attributes = ["app": arguments[4]]
        do {
            let keyring = try MSALSecretServicePersistence(schemaName: schema, attributes: attributes, signalFile: signal)
            switch arguments[1] {
            case "clear":
                _ = try PersistenceTokenCacheStorage(persistence: keyring).update { document in
                    for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken] { document[section] = [:] }
                }
            case "write" where arguments.count == 7:
                let storage = PersistenceTokenCacheStorage(persistence: keyring)
                let prefix = arguments[5]
                for index in 0..<(Int(arguments[6]) ?? 0) {
                    _ = try storage.update { document in
                        document[.accessToken]["\(prefix)-\(index)"] = ["secret": .string("\(prefix)-\(index)"), "writer": .string(prefix)]
                    }
                }
            case "locked":
                try keyring.save(Data(#"{"AccessToken": {}}"#.utf8))
                try keyring.lockKeyringForTesting()
                report("load") { _ = try keyring.load() }
                report("save") { try keyring.save(Data("{}".utf8)) }
                report("check") { try keyring.checkAvailable() }
                let config = MSALPublicClientApplicationConfig(clientId: "00001111-aaaa-2222-bbbb-3333cccc4444")
                config.tokenCacheLocation = .persistence(keyring)
                let app = try MSALPublicClientApplication(configuration: config)
                report("accounts") { _ = try app.allAccounts() }
                print("lastTokenCacheError \(describe(app.lastTokenCacheError))")
            case "probe":
                report("load") { _ = try keyring.load() }
                let config = MSALPublicClientApplicationConfig(clientId: "00001111-aaaa-2222-bbbb-3333cccc4444")
                config.tokenCacheLocation = .persistence(keyring)
                let app = try MSALPublicClientApplication(configuration: config)
                report("accounts") { _ = try app.allAccounts() }
            case "fallback" where arguments.count == 6:
                let logger = MSALLoggerConfig()
                logger.setLogCallback { level, message, _ in print("log [\(level)] \(message ?? "")") }
                let location = MSALNativeAuthTokenCacheLocation.secretService(
                    schemaName: schema, attributes: attributes, signalFile: signal, orFallback: .file(URL(fileURLWithPath: arguments[5])),
                    logger: logger)
                switch location {
                case .file(let url): print("chose file \(url.path)")
                case .persistence: print("chose keyring")
                default: print("chose other")
                }
            default:
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("msal-keyring-helper: \(describe(error as NSError))\n".utf8))
            exit(1)
        }
    }

    static func report(_ name: String, _ body: () throws -> Void) {
        do {
            try body()
            print("\(name) ok")
        } catch {
            print("\(name) \(describe(error as NSError))")
        }
    }

    static func describe(_ error: NSError?) -> String {
        guard let error else { return "none" }
        return "error \(error.domain) \(error.code) \(error.localizedDescription)"
    }
}
