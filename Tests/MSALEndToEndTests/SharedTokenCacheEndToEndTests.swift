import Foundation
import NativeAuthEmulator
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Application objects sharing one entry store behave as workers on several machines sharing a
/// Redis server (docs/scale-out.md): what one signs in, refreshes or signs out the others see, and
/// nothing one writes is lost or lands in another user's partition. Against the emulator in process,
/// with strict refresh-token rotation (a refresh token is honoured once), so that a refresh that
/// presents a token another machine already spent fails.
@Suite(.tags(.concurrency)) struct SharedTokenCacheEndToEndTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"
    static let profile = "api://emulator/profile/Profile.Read"

    /// Counts the token requests one machine sends.
    final class CountingTransport: HTTPTransport {
        let inner: any HTTPTransport
        private let count = Locked(0)
        init(_ inner: any HTTPTransport) { self.inner = inner }
        var tokenRequests: Int { count.withLock { $0 } }
        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            if request.url.path.hasSuffix("/oauth2/v2.0/token") { count.withLock { $0 += 1 } }
            return try await inner.send(request)
        }
    }

    struct Machine {
        let app: MSALNativeAuthPublicClientApplication
        let transport: CountingTransport
    }

    /// The SDK's clock, moved in step with the emulator's.
    final class MovableClock: NativeAuthClock {
        private let offset = Locked<TimeInterval>(0)
        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func sleep(seconds: Double) async throws { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    let harness: EmulatorHarness
    var router: EmulatorRouter { harness.router }
    let store: InMemoryTokenCacheEntryStore

    init() throws {
        harness = try H { $0.strictRefreshTokenRotation = true }
        store = InMemoryTokenCacheEntryStore()
    }

    func machine(checkInterval: TimeInterval = 60, clock: MovableClock = MovableClock()) throws -> Machine {
        let transport = CountingTransport(EmulatorTransport(router: router))
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .entryStore(store, checkInterval: checkInterval)
        config.allowsMultipleAccounts = true
        config.transport = transport
        return Machine(
            app: try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { UUID() }), transport: transport)
    }

    func signIn(_ machine: Machine, _ username: String, _ password: String) async throws -> MSALNativeAuthUserAccountResult {
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = password
        guard case .completed(let account) = try await machine.app.signIn(parameters: parameters) else {
            throw EndToEndFailure("no sign-in for \(username)")
        }
        return account
    }

    func token(_ account: MSALNativeAuthUserAccountResult, _ scope: String, force: Bool = false) async throws -> String {
        let request = MSALNativeAuthGetAccessTokenParameters()
        request.scopes = [scope]
        request.forceRefresh = force
        return try await account.getAccessToken(parameters: request).accessToken
    }

    func partition(_ account: MSALNativeAuthUserAccountResult) -> MSALTokenCachePartition {
        MSALTokenCachePartition(clientId: H.passwordApp, homeAccountId: account.account.identifier)
    }

    /// The access tokens stored for `account`, by scope.
    func storedAccessTokens(_ account: MSALNativeAuthUserAccountResult) throws -> [String: String] {
        var tokens: [String: String] = [:]
        for (key, value) in store.storedEntries(of: partition(account)) where key.hasPrefix("AccessToken:") {
            let object = try #require(try JSONSerialization.jsonObject(with: value.data) as? [String: String])
            tokens[object["target"] ?? ""] = object["secret"]
        }
        return tokens
    }

    @Test func aSignInOnOneMachineServesTokensOnAnother() async throws {
        let first = try machine()
        let second = try machine()
        _ = try #require(second.app.getNativeAuthUserAccount() == nil)
        let signedIn = try await signIn(first, H.ada, H.adaPassword)
        let todo = try await token(signedIn, Self.todo)

        // The list of accounts asks the store at once, whatever the interval.
        let there = try #require(second.app.getNativeAuthUserAccount())
        #expect(there.account.username == H.ada)
        // A token the first machine got is served on the second from the shared cache.
        #expect(try await token(there, Self.todo) == todo)
        #expect(second.transport.tokenRequests == 0)
        // One the second gets, the first finds on its next miss without a request.
        let profile = try await token(there, Self.profile)
        let before = first.transport.tokenRequests
        #expect(try await token(signedIn, Self.profile) == profile)
        #expect(first.transport.tokenRequests == before)
    }

    @Test func machinesRefreshingOneAccountAtOnceLoseNothing() async throws {
        let machines = try (0..<4).map { _ in try machine() }
        _ = try await signIn(machines[0], H.ada, H.adaPassword)
        let accounts = try machines.map { try #require($0.app.getNativeAuthUserAccount()) }
        // Every machine forces refreshes of both APIs at once, several rounds; with a refresh token
        // honoured once, one presented twice would fail.
        let results = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for round in 0..<3 {
                for (index, account) in accounts.enumerated() {
                    let scope = (index + round).isMultiple(of: 2) ? Self.todo : Self.profile
                    group.addTask { (scope, try await token(account, scope, force: true)) }
                }
            }
            var all: [(String, String)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 12)
        // Beside the sign-in's own token, one for each API, neither lost, each one a caller got.
        let stored = try storedAccessTokens(accounts[0]).filter { $0.key.contains(Self.todo) || $0.key.contains(Self.profile) }
        #expect(stored.count == 2, "\(stored.keys.sorted())")
        for (scope, value) in stored {
            #expect(results.contains { scope.contains($0.0) && $0.1 == value }, "the stored token is one a caller got")
        }
        // The refresh token left in the store is the live one: every machine can refresh again.
        for account in accounts { _ = try await token(account, Self.todo, force: true) }
    }

    @Test func oneUsersWritesNeverTouchAnotherUsersPartition() async throws {
        let first = try machine()
        let second = try machine()
        let ada = try await signIn(first, H.ada, H.adaPassword)
        _ = try await token(ada, Self.todo)
        let adaBefore = store.storedEntries(of: partition(ada))
        #expect(!adaBefore.isEmpty)
        store.clearOperations()

        let barbara = try await signIn(second, "barbara@example.com", "Substitution-Principle-1987")
        _ = try await token(barbara, Self.todo)
        _ = try await token(barbara, Self.profile, force: true)
        barbara.signOut()

        #expect(store.storedEntries(of: partition(ada)) == adaBefore, "byte for byte")
        let touched = store.operations.compactMap { operation -> MSALTokenCachePartition? in
            switch operation {
            case .write(let write): return write.partition
            case .removePartition(let partition): return partition
            default: return nil
            }
        }
        #expect(!touched.isEmpty && !touched.contains(partition(ada)), "\(touched)")
        #expect(touched.contains(partition(barbara)))
        #expect(try first.app.allAccounts().map(\.username) == [H.ada])
    }

    @Test func aSignOutRemovesThePartitionEverywhere() async throws {
        let first = try machine()
        let second = try machine()
        let ada = try await signIn(first, H.ada, H.adaPassword)
        let there = try #require(second.app.getNativeAuthUserAccount())
        ada.signOut()
        #expect(!store.partitions.contains(partition(ada)))
        #expect(second.app.getNativeAuthUserAccount() == nil)
        // The other machine's account object can no longer get tokens: its refresh finds no refresh token.
        await #expect(throws: RetrieveAccessTokenError.self) { try await token(there, Self.todo) }
    }

    @Test func aFailingStoreIsATypedErrorAndNothingIsKeptElsewhere() async throws {
        let first = try machine()
        store.failure = InMemoryTokenCacheEntryStore.Failure("the shared store is down")
        _ = try await signIn(first, H.ada, H.adaPassword) // signed in; the tokens live in the result
        let error = try #require(first.app.lastTokenCacheError)
        #expect(error.localizedDescription.hasSuffix("the in-memory test store: the shared store is down"), "\(error.localizedDescription)")
        #expect(throws: (any Error).self) { try first.app.allAccounts() }
        store.failure = nil
        // Back: nothing was cached anywhere meanwhile (no file, no memory-only copy), and the error is over.
        #expect(try first.app.allAccounts().isEmpty)
        #expect(store.partitions.isEmpty)
        _ = try await signIn(first, H.ada, H.adaPassword)
        #expect(try first.app.allAccounts().map(\.username) == [H.ada])
    }

    @Test func anExpiredTokenIsNeverServedFromMemory() async throws {
        let clock = MovableClock()
        let first = try machine(checkInterval: 3600, clock: clock)
        let ada = try await signIn(first, H.ada, H.adaPassword)
        let old = try await token(ada, Self.todo)
        let requests = first.transport.tokenRequests
        #expect(try await token(ada, Self.todo) == old)
        #expect(first.transport.tokenRequests == requests, "served from memory")
        // An hour later the token has expired; the copy is still trusted (no check for an hour), but
        // an expired token is not served from it: the call refreshes.
        harness.advanceClock(3600)
        clock.advance(3600)
        let new = try await token(ada, Self.todo)
        #expect(new != old)
        #expect(first.transport.tokenRequests == requests + 1)
    }
}
