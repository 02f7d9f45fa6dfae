import Foundation
import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// A helper for the cache's multi-process tests (not shipped as a product):
///
///     msal-cache-stress write FILE PREFIX COUNT   adds COUNT entries PREFIX-0…, one locked update each
///     msal-cache-stress churn FILE                rewrites FILE forever with version-stamped contents
///     msal-cache-stress check FILE                exits 0 when FILE parses as a token cache
///     msal-cache-stress set-secrets FILE SECRET   one locked update giving every access token SECRET
///                                                 (a refresh written by another process)
///     msal-cache-stress clear FILE                one locked update removing every credential (a sign-out)
///     msal-cache-stress in-place FILE SECRET      as set-secrets, but written over the file in place
///                                                 (truncate and write, as msal-extensions does), no rename
///     msal-cache-stress hold FILE CLIENT_ID AUTHORITY SCOPE…
///                                                 an app on FILE (MSAL's public API only) gets a cached
///                                                 token for each SCOPE, then prints its resident set at
///                                                 start and at its peak, in MB: the memory benchmark
///     msal-cache-stress full-disk FILE BYTES      one update with files limited to BYTES (RLIMIT_FSIZE):
///                                                 a disk that fills up mid-write; exits 3 when the
///                                                 write failed cleanly with an error
@main
struct CacheStress {
    static func main() async {
        let arguments = CommandLine.arguments
        if arguments.count >= 6, arguments[1] == "hold" { exit(await hold(arguments)) }
        guard arguments.count >= 3 else {
            FileHandle.standardError.write(Data("usage: msal-cache-stress write|churn|check FILE [PREFIX COUNT]\n".utf8))
            exit(2)
        }
        let storage = FileTokenCacheStorage(url: URL(fileURLWithPath: arguments[2]))
        do {
            switch arguments[1] {
            case "write" where arguments.count == 5:
                let prefix = arguments[3]
                for index in 0..<(Int(arguments[4]) ?? 0) {
                    _ = try storage.update { document in
                        document[.accessToken]["\(prefix)-\(index)"] = ["secret": .string("\(prefix)-\(index)"), "writer": .string(prefix)]
                    }
                }
            case "churn":
                var version = 0
                // Large, varying contents so that a kill can land in the middle of a write.
                let padding = String(repeating: "x", count: 200_000)
                while true {
                    version += 1
                    _ = try storage.update { document in
                        document[.accessToken] = ["version": ["secret": .string(String(version)), "padding": .string(padding)]]
                    }
                }
            case "set-secrets" where arguments.count == 4:
                _ = try storage.update { document in
                    for key in document[.accessToken].keys { document[.accessToken][key]?["secret"] = .string(arguments[3]) }
                }
            case "clear":
                _ = try storage.update { document in
                    for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken] { document[section] = [:] }
                }
            case "in-place" where arguments.count == 4:
                var document = try TokenCacheDocument(json: try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
                for key in document[.accessToken].keys { document[.accessToken][key]?["secret"] = .string(arguments[3]) }
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: arguments[2]))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: document.serialized())
                try handle.close()
            case "full-disk" where arguments.count == 4:
                var limit = rlimit(rlim_cur: rlim_t(Int(arguments[3]) ?? 0), rlim_max: rlim_t(Int(arguments[3]) ?? 0))
                signal(SIGXFSZ, SIG_IGN) // a write past the limit then fails with EFBIG instead of killing us
                setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
                do {
                    _ = try storage.update { document in
                        document[.accessToken]["big"] = ["secret": .string(String(repeating: "z", count: 1 << 20))]
                    }
                } catch {
                    FileHandle.standardError.write(Data("\(error)\n".utf8))
                    exit(3)
                }
            case "check":
                guard let snapshot = try storage.load(ifChangedSince: nil), snapshot.problem == nil else { exit(1) }
                print(snapshot.document[.accessToken]["version"]?["secret"]?.stringValue ?? "empty")
            default:
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("msal-cache-stress: \(error)\n".utf8))
            exit(1)
        }
    }

    /// A process holding the cache as an app does, linking the SDK and nothing else.
    static func hold(_ arguments: [String]) async -> Int32 {
        let start = residentMegabytes("VmRSS:")
        do {
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: arguments[3], authority: try MSALCIAMAuthority(url: URL(string: arguments[4])!),
                challengeTypes: [.OOB, .password])
            config.tokenCacheLocation = .file(URL(fileURLWithPath: arguments[2]))
            config.allowsMultipleAccounts = true
            let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
            guard let account = app.getNativeAuthUserAccount() else { return 2 }
            let parameters = MSALNativeAuthGetAccessTokenParameters()
            for scope in arguments.dropFirst(5) {
                parameters.scopes = [scope]
                _ = try await account.getAccessToken(parameters: parameters)
            }
        } catch {
            FileHandle.standardError.write(Data("msal-cache-stress: \(error)\n".utf8))
            return 1
        }
        print(String(format: "%.1f %.1f", start, residentMegabytes("VmHWM:")))
        return 0
    }

    private static func residentMegabytes(_ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field) } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? -1024) / 1024
    }
}
