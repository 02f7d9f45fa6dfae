import Foundation
import MSAL
import MSALRedis

/// One worker of the backend: what each of your app's processes (or machines) would run. It has
/// an SDK application whose token cache is on Redis, and the saved sign-ins on the same Redis,
/// and answers requests, one line each on its standard input, with one line on its standard
/// output (`ok …` or `error …`):
///
/// | Request | Does | Answers |
/// |---|---|---|
/// | `start EMAIL` | starts an email + one-time-code sign-in and saves the waiting state in Redis | `ok ID` |
/// | `finish ID CODE` | takes the saved state (once), restores it, submits the code | `ok USERNAME ACCOUNT` |
/// | `token ACCOUNT SCOPE` | an access token for the user with that account id, from the shared cache | `ok USERNAME EXPIRES` |
///
/// `ACCOUNT` is the user's home account id: the front end keeps it in the user's session (a cookie)
/// and names it in every request, and the worker finds that user by it, whichever users it served
/// before. In a real backend the requests come from your front end over HTTP; here
/// `RedisWorkersRun` sends them. The worker leaves at the end of its input.
public final class Worker: Sendable {
    let app: MSALNativeAuthPublicClientApplication
    let signIns: MSALRedisSignInStore

    /// What a worker is told when it starts: where the service and Redis are.
    public struct Settings: Sendable {
        public var authority: String
        public var clientId: String
        /// A secret (it may hold a password): given in the environment, not on the command line.
        public var redisURL: String
        /// Put before every key, so that runs sharing a Redis server do not mix.
        public var keyPrefix: String
        /// 32 bytes: the saved sign-ins and the cached tokens are sealed with it in Redis.
        public var encryptionKey: Data
    }

    public init(_ settings: Settings) throws(RedisWorkersError) {
        do {
            var configuration = try MSALRedisConfiguration(url: settings.redisURL)
            configuration.keyPrefix = settings.keyPrefix
            let client = try MSALRedisClient(configuration: configuration)
            try client.ping() // fail now, not at the first request
            signIns = try MSALRedisSignInStore(client: client, encryptionKey: settings.encryptionKey)
            let tokenCache = try MSALRedisTokenCacheEntryStore(client: client, encryptionKey: settings.encryptionKey)
            guard let url = URL(string: settings.authority) else { throw RedisWorkersError("not an authority URL") }
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: settings.clientId, authority: try MSALCIAMAuthority(url: url), challengeTypes: [.OOB])
            // Many users on one backend: keep every account (docs/scale-out.md).
            config.allowsMultipleAccounts = true
            // The token cache every worker shares; each keeps a copy in memory, checked every second.
            config.tokenCacheLocation = .entryStore(tokenCache, checkInterval: 1)
            app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        } catch let error as MSALRedisError {
            throw RedisWorkersError(error.message)
        } catch let error as RedisWorkersError {
            throw error
        } catch {
            throw RedisWorkersError("the SDK: \(error.localizedDescription)")
        }
    }

    /// Answers requests from standard input until it ends.
    public func serve() async {
        say("ready")
        while let line = readLine() {
            let reply: String
            do throws(RedisWorkersError) {
                reply = "ok " + (try await answer(line))
            } catch {
                reply = "error " + error.description
            }
            say(reply)
        }
    }

    func answer(_ request: String) async throws(RedisWorkersError) -> String {
        let words = request.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("start", 2): return try await start(email: words[1])
        case ("finish", 3): return try await finish(id: words[1], code: words[2])
        case ("token", 3): return try await token(account: words[1], scope: words[2])
        default: throw RedisWorkersError("unknown request") // not echoed: it may hold a code
        }
    }

    /// Starts the sign-in and keeps its waiting state in Redis; the id goes back to the front end.
    func start(email: String) async throws(RedisWorkersError) -> String {
        let result: SignInStartResult
        do { result = try await app.signIn(parameters: MSALNativeAuthSignInParameters(username: email)) } catch {
            throw RedisWorkersError("sign-in refused: \(error.errorDescription ?? "no reason given")")
        }
        guard case .codeRequired(let state, _, _, _) = result else { throw RedisWorkersError("the service did not ask for a code") }
        do { return try signIns.save(state.serialized()) } catch { throw RedisWorkersError(error.message) }
    }

    /// Takes the saved state (no other worker can take it after this), restores it and submits the code.
    func finish(id: String, code: String) async throws(RedisWorkersError) -> String {
        let saved: Data
        do { saved = try signIns.take(id) } catch {
            throw RedisWorkersError(
                error.code == .notFound
                    ? "no saved sign-in under that id (never saved, expired, or taken already)" : error.message)
        }
        let state: SignInCodeRequiredState
        do { state = try app.restoreState(serialized: saved, as: SignInCodeRequiredState.self) } catch {
            throw RedisWorkersError("the saved state: \(error.errorDescription ?? "cannot be restored")")
        }
        let result: SignInVerifyCodeResult
        do { result = try await state.submitCode(code: code) } catch {
            throw RedisWorkersError("the code: \(error.errorDescription ?? "refused")")
        }
        guard case .completed(let account) = result else { throw RedisWorkersError("the service asked for another step") }
        return "\(account.account.username ?? "?") \(account.account.identifier ?? "?")"
    }

    /// An access token for the user whose home account id the request names: from the cache on
    /// Redis (or one refresh with the refresh token there), whichever worker signed the user in.
    /// The user is found by id, never as "the signed-in account": `getNativeAuthUserAccount()`
    /// answers whoever used this worker last. The token itself stays here.
    func token(account identifier: String, scope: String) async throws(RedisWorkersError) -> String {
        let account: MSALNativeAuthUserAccountResult
        do { account = try await app.nativeAuthUserAccount(forIdentifier: identifier) } catch {
            throw RedisWorkersError("no signed-in account with that id in the shared cache")
        }
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [scope]
        do {
            let token = try await account.getAccessToken(parameters: parameters)
            return "\(account.account.username ?? "?") \(Int(token.expiresOn?.timeIntervalSince1970 ?? 0))"
        } catch {
            throw RedisWorkersError("no access token: \(error.errorDescription ?? "refused")")
        }
    }
}
