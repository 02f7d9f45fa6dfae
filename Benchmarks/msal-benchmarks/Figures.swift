import Foundation
import MSAL
import NativeAuthEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One measured figure against its target.
struct Row: Codable {
    var figure: String
    var measured: String
    var target: String
    var met: Bool?
}

// MARK: 1. Round trips

func roundTrips() async throws -> [Row] {
    let emulator = try InProcessEmulator()
    let (log, authority, transport) = (emulator.log, emulator.authority, emulator.transport)
    let clock = MovableClock()
    let app = try Demo.app(authority: authority, transport: transport, clock: clock)
    let codeApp = try Demo.app(authority: authority, clientId: Demo.codeApp, transport: transport, clock: clock)
    var rows: [Row] = []
    func measure(_ name: String, minimum: Int, _ body: () async throws -> Void) async throws {
        log.clear()
        try await body()
        let count = log.count
        rows.append(
            Row(figure: "round trips: \(name)", measured: "\(count)", target: "\(minimum) (protocol minimum)", met: count == minimum))
    }

    var signedIn: MSALNativeAuthUserAccountResult?
    try await measure("password sign-in", minimum: 3) { signedIn = try await Demo.signIn(app) }
    try await measure("email-code sign-in", minimum: 3) {
        guard case .codeRequired(let state, _, _, _) = try await codeApp.signIn(parameters: .init(username: "grace@example.com")) else {
            return
        }
        _ = try await state.submitCode(code: log.lastCode("grace@example.com"))
    }
    func signUp(
        _ name: String, _ username: String, password: String?, attributes: [String: Any]?, minimum: Int,
        app: MSALNativeAuthPublicClientApplication
    ) async throws -> SignInAfterSignUpState? {
        var after: SignInAfterSignUpState?
        try await measure(name, minimum: minimum) {
            let parameters = MSALNativeAuthSignUpParameters(username: username)
            parameters.password = password
            parameters.attributes = attributes
            guard case .codeRequired(let state, _, _, _) = try await app.signUp(parameters: parameters) else { return }
            switch try await state.submitCode(code: log.lastCode(username)) {
            case .completed(let next): after = next
            case .passwordRequired(let next):
                if case .completed(let done) = try await next.submitPassword(password: "Fresh-Start-2026") { after = done }
            case .attributesRequired(_, let next):
                if case .completed(let done) = try await next.submitAttributes(attributes: ["displayName": "Bench"]) { after = done }
            }
        }
        return after
    }
    let after = try await signUp(
        "sign-up, password and attributes at start", "one@example.com", password: "Fresh-Start-2026",
        attributes: ["displayName": "One"], minimum: 3, app: app)
    try await measure("sign-in after sign-up", minimum: 1) { _ = try await after?.signIn() }
    _ = try await signUp(
        "sign-up, password after verification", "two@example.com", password: nil, attributes: ["displayName": "Two"],
        minimum: 5, app: app)
    _ = try await signUp(
        "sign-up, attributes after verification", "three@example.com", password: "Fresh-Start-2026", attributes: nil,
        minimum: 4, app: app)
    _ = try await signUp(
        "sign-up, email code only", "four@example.com", password: nil, attributes: ["displayName": "Four"],
        minimum: 3, app: codeApp)
    var resetAfter: SignInAfterResetPasswordState?
    try await measure("password reset", minimum: 5) {
        let sent = try await app.resetPassword(parameters: .init(username: "ada@example.com"))
        let next = try await sent.newState.submitCode(code: log.lastCode("ada@example.com"))
        resetAfter = try await next.submitPassword(password: "Difference-Engine-1822")
    }
    try await measure("sign-in after reset", minimum: 1) { if case .completed(let r) = try await resetAfter!.signIn() { signedIn = r } }

    // Multifactor authentication and just-in-time strong-auth registration (docs/protocol.md#multifactor-authentication).
    let strongAuthApp = try Demo.app(
        authority: authority, transport: transport, clock: clock, capabilities: [.mfaRequired, .registrationRequired])
    try await measure("MFA sign-in (password + code)", minimum: 6) {
        let parameters = MSALNativeAuthSignInParameters(username: "alan@example.com")
        parameters.password = "Turing-Machine-1936"
        guard case .awaitingMFA(let methods, let state) = try await strongAuthApp.signIn(parameters: parameters) else { return }
        let sent = try await state.requestChallenge(authMethod: methods[0])
        _ = try await sent.newState.submitChallenge(challenge: log.lastCode("alan@example.com"))
    }
    try log.addUser(["username": "jit@example.com", "password": "Fresh-Start-2026", "mfa_required": true])
    try await measure("JIT registration (code)", minimum: 7) {
        let parameters = MSALNativeAuthSignInParameters(username: "jit@example.com")
        parameters.password = "Fresh-Start-2026"
        guard case .strongAuthMethodRegistration(let methods, let state) = try await strongAuthApp.signIn(parameters: parameters),
            case .verificationRequired(let sent) = try await state.challengeAuthMethod(
                parameters: .init(authMethod: methods[0], verificationContact: "jit.backup@example.org"))
        else { return }
        _ = try await sent.newState.submitChallenge(challenge: log.lastCode("jit@example.com"))
    }
    try await measure("JIT registration (preverified)", minimum: 7) {
        let parameters = MSALNativeAuthSignInParameters(username: "katherine@example.com")
        parameters.password = "Orbital-Mechanics-1962"
        guard case .strongAuthMethodRegistration(let methods, let state) = try await strongAuthApp.signIn(parameters: parameters) else {
            return
        }
        _ = try await state.challengeAuthMethod(parameters: .init(authMethod: methods[0], verificationContact: "katherine@example.com"))
    }
    guard let account = signedIn else { throw EmulatorError("no account") }
    _ = try await Demo.token(account, Demo.todo)
    try await measure("getAccessToken, cached", minimum: 0) { _ = try await Demo.token(account, Demo.todo) }
    clock.advance(3600)
    try await measure("getAccessToken, expired", minimum: 1) { _ = try await Demo.token(account, Demo.todo) }
    return rows
}

// MARK: 2. Cached getAccessToken latency

struct LatencyResult: Codable {
    var tokens: Int
    var sdk: Stats
    var peer: Stats?
}

func cachedLatency(python: String?, iterations: Int) async throws -> ([Row], [LatencyResult]) {
    var rows: [Row] = []
    var results: [LatencyResult] = []
    for (accounts, sets) in [(1, 10), (10, 100), (100, 100)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token_cache.json")
        try CacheFixture.write(to: file, accounts: accounts, scopeSets: sets)
        let app = try CacheFixture.application(cache: file)
        guard let account = app.getNativeAuthUserAccount() else { throw EmulatorError("no cached account") }
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [CacheFixture.scope(sets / 2)]
        let sdk = try await timedCachedCalls(account, parameters, iterations: iterations)
        var peer: Stats?
        if let python {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "peer_msal.py"
            ).path
            let output = try run(
                python,
                [
                    script, "silent", file.path, CacheFixture.clientId, CacheFixture.authority, CacheFixture.scope(sets / 2),
                    account.account.username ?? "", String(max(200, iterations / 10)),
                ])
            if output.status == 0, let object = try JSONSerialization.jsonObject(with: Data(output.output.utf8)) as? [String: Any],
                let raw = object["samples"] as? [NSNumber]
            {
                peer = Stats(raw.map(\.uint64Value))
            }
        }
        let tokens = accounts * sets
        results.append(LatencyResult(tokens: tokens, sdk: sdk, peer: peer))
        let speedup = peer.map { $0.p50 / sdk.p50 }
        rows.append(
            Row(
                figure: "cached getAccessToken, \(tokens) tokens (p50 / p99 µs)",
                measured: "\(format(sdk.p50, 2)) / \(format(sdk.p99, 2))"
                    + (peer.map { "  (msal-python \(format($0.p50)) / \(format($0.p99)))" } ?? ""),
                target: tokens == 10_000 ? "p50 ≤ 5 µs; ≥ 10× the peer" : "≥ 10× the peer",
                met: (tokens != 10_000 || sdk.p50 <= 5) && (speedup.map { $0 >= 10 } ?? false)))
    }
    let growth = results[2].sdk.p50 / results[0].sdk.p50
    rows.append(
        Row(
            figure: "cached getAccessToken growth, 10 → 10,000 tokens", measured: "\(format(growth, 2))×", target: "≤ 1.2×",
            met: growth <= 1.2)
    )
    return (rows, results)
}

/// `iterations` calls of `getAccessToken` after 200 of warm-up, each timed alone; `between` runs
/// before each call, untimed.
func timedCachedCalls(
    _ account: MSALNativeAuthUserAccountResult, _ parameters: MSALNativeAuthGetAccessTokenParameters, iterations: Int,
    between: (() throws -> Void)? = nil
) async throws -> Stats {
    for _ in 0..<200 { _ = try await account.getAccessToken(parameters: parameters) }
    var samples: [UInt64] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        try between?()
        let start = now()
        _ = try await account.getAccessToken(parameters: parameters)
        samples.append(now() - start)
    }
    return Stats(samples)
}

/// Cached look-ups in a loop, off the main actor as in the figure, for a profiler.
func lookupLoop(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 3, let set = Int(arguments[1]), let count = Int(arguments[2]),
        let app = try? CacheFixture.application(cache: URL(fileURLWithPath: arguments[0])), let account = app.getNativeAuthUserAccount()
    else { return 2 }
    let parameters = MSALNativeAuthGetAccessTokenParameters()
    parameters.scopes = [CacheFixture.scope(set)]
    let start = now()
    for _ in 0..<count { _ = try? await account.getAccessToken(parameters: parameters) }
    print("\(format(Double(now() - start) / Double(count) / 1000, 3)) µs per look-up")
    return 0
}

// MARK: 4. Persistence

func persistence(python: String?) throws -> [Row] {
    var rows: [Row] = []
    for (accounts, sets) in [(10, 100), (100, 100)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-persist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token_cache.json")
        try CacheFixture.write(to: file, accounts: accounts, scopeSets: sets)
        let data = try Data(contentsOf: file)
        // The bytes as the SDK reads the file (the peer's `deserialize` is likewise handed the text).
        let bytes = [UInt8](data)
        var parse: [UInt64] = []
        var serialize: [UInt64] = []
        var write: [UInt64] = []
        var lookupCopy: [UInt64] = []
        let storage = FileTokenCacheStorage(url: file)
        for round in 0..<10 {
            var start = now()
            let document = try TokenCacheDocument(bytes: bytes)
            parse.append(now() - start)
            start = now()
            _ = document.serializedBytes()
            serialize.append(now() - start)
            // A refresh: one access token replaced, the rest written back as read.
            start = now()
            _ = try storage.update { document in
                guard let key = document[.accessToken].keys.first else { return }
                document[.accessToken][key]?["secret"] = .string("refreshed-\(round)")
            }
            write.append(now() - start)
            // What a process reads for look-ups (secrets left in the file), from the file.
            start = now()
            _ = try FileTokenCacheStorage(url: file).load(ifChangedSince: nil)
            lookupCopy.append(now() - start)
        }
        let sdkLoad = Stats(parse)
        let sdkSave = Stats(serialize)
        let sdkWrite = Stats(write)
        var peerLoad: Stats?
        var peerSave: Stats?
        if let python {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "peer_msal.py"
            ).path
            let output = try run(python, [script, "persist", file.path, "10"])
            if let object = try? JSONSerialization.jsonObject(with: Data(output.output.utf8)) as? [String: [NSNumber]] {
                peerLoad = object["load"].map { Stats($0.map(\.uint64Value)) }
                peerSave = object["save"].map { Stats($0.map(\.uint64Value)) }
            }
        }
        let tokens = accounts * sets
        func ms(_ stats: Stats?) -> String { stats.map { format($0.p50 / 1000, 2) + " ms" } ?? "n/a" }
        rows.append(
            Row(
                figure: "cache load (parse), \(tokens) tokens, \(data.count / 1024) KiB",
                measured: "\(ms(sdkLoad))  (msal-python \(ms(peerLoad)))"
                    + (peerLoad.map { "; \(format(100 * sdkLoad.p50 / $0.p50, 0))% of the peer" } ?? ""),
                target: "≤ the peer (goal: half)", met: peerLoad.map { sdkLoad.p50 <= $0.p50 }))
        rows.append(
            Row(
                figure: "cache save (serialize), \(tokens) tokens", measured: "\(ms(sdkSave))  (msal-python \(ms(peerSave)))",
                target: "≤ the peer", met: peerSave.map { sdkSave.p50 <= $0.p50 }))
        rows.append(
            Row(
                figure: "cache look-up copy read from the file, \(tokens) tokens", measured: ms(Stats(lookupCopy)), target: "(reported)",
                met: nil))
        rows.append(
            Row(
                figure: "cache locked read-merge-write with fsync, \(tokens) tokens", measured: ms(sdkWrite),
                target: tokens == 10_000 ? "≤ 100 ms" : "(reported)", met: tokens == 10_000 ? sdkWrite.p50 / 1000 <= 100 : nil))
    }
    return rows
}
