import Foundation
import MSAL
import MSALRedis
import NativeAuthEmulator

#if canImport(Glibc)
    import Glibc
#endif

/// `msal-benchmarks redis-scale-worker URL USERS SECONDS LIMIT_MB CHECK_INTERVAL SCOPE_SETS`: one
/// worker of the Redis scale figure (Benchmarks/msal-benchmarks/RedisScale.swift), in a process of
/// its own so that its RSS is its own. Redis already holds USERS users (seeded by the parent). Each
/// request does what a backend does: finds the request's user by id with `account(forIdentifier:)`
/// on the standard `MSALPublicClientApplication`, then `acquireTokenSilent` for a cached token, and
/// checks that the token is that user's. Each stage runs about SECONDS; prints one JSON object of
/// samples (ns) and RSS figures (MB).
func redisScaleWorker(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 6, let users = Int(arguments[1]), let seconds = Double(arguments[2]), let limit = Int(arguments[3]),
        let interval = Double(arguments[4]), let sets = Int(arguments[5]), users > 1
    else { return 2 }
    signal(SIGPIPE, SIG_IGN)
    let worker = ScaleWorker(
        url: arguments[0], users: users, seconds: seconds, memoryLimit: limit << 20, interval: interval, scopeSets: sets)
    do {
        let report = try await worker.run()
        print(String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self))
        return 0
    } catch {
        FileHandle.standardError.write(Data("redis-scale-worker: \(error)\n".utf8))
        return 1
    }
}

struct ScaleWorker {
    let url: String
    let users: Int
    let seconds: Double
    let memoryLimit: Int
    let interval: TimeInterval
    let scopeSets: Int

    /// A new application over its own connection to Redis, as a new worker process makes;
    /// `tracksChanges`: whether Redis pushes other machines' changes (`CLIENT TRACKING`).
    func application(checkInterval: TimeInterval, url: String? = nil, tracksChanges: Bool = true) throws -> MSALPublicClientApplication {
        let configuration = try MSALRedisConfiguration(url: url ?? self.url)
        let store = try MSALRedisTokenCacheEntryStore(
            client: try MSALRedisClient(configuration: configuration), tracksChanges: tracksChanges)
        let config = MSALPublicClientApplicationConfig(
            clientId: CacheFixture.clientId, redirectUri: nil, authority: try MSALCIAMAuthority(url: URL(string: CacheFixture.authority)!))
        config.tokenCacheLocation = .entryStore(store, checkInterval: checkInterval)
        config.tokenCacheMemoryLimit = memoryLimit
        return try MSALPublicClientApplication(configuration: config)
    }

    static func identifier(_ user: Int) -> String { "\(CacheFixture.uid(user)).\(CacheFixture.utid)" }

    /// One request for `user`: the look-up by id and the silent call, timed apart (ns).
    /// The user's id and scope, as a request arrives with them, are made before it is timed
    /// (`String(format:)` alone costs a few µs).
    func request(_ app: MSALPublicClientApplication, _ user: Int) async throws -> (lookup: UInt64, silent: UInt64) {
        let identifier = Self.identifier(user)
        let set = user % scopeSets
        let scopes = [CacheFixture.scope(set)]
        let start = now()
        let account = try app.account(forIdentifier: identifier)
        let found = now()
        let result = try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: scopes, account: account))
        let done = now()
        guard result.accessToken == CacheFixture.secret(account: user, scopeSet: set) else {
            throw EmulatorError("user \(user) was given another user's token")
        }
        return (found - start, done - found)
    }

    /// Runs `body` until `seconds` have passed (at least `least` times, at most `most`).
    func stage(least: Int = 20, most: Int = 2_000_000, _ body: (Int) async throws -> Void) async rethrows {
        let end = now() + UInt64(seconds * 1e9)
        var index = 0
        while index < most, index < least || now() < end {
            try await body(index)
            index += 1
        }
    }

    func run() async throws -> [String: Any] {
        var report: [String: Any] = ["baselineRSS": currentRSSMegabytes() ?? 0]
        // A new worker's first request: a new application (its own connection) per sample.
        var first: [UInt64] = []
        try await stage(most: 300) { _ in
            let app = try application(checkInterval: interval)
            let user = Int.random(in: 0..<users)
            let start = now()
            _ = try await request(app, user)
            first.append(now() - start)
        }
        report["first"] = first
        try await roundRobin(into: &report)

        // Warm: a set of users served once, then requests for them in random order.
        let app = try application(checkInterval: interval)
        let warmSet = Array((0..<users).shuffled().prefix(1_000))
        for user in warmSet { _ = try await request(app, user) }
        var warm: [UInt64] = []
        var lookups: [UInt64] = []
        var silents: [UInt64] = []
        try await stage { _ in
            let (lookup, silent) = try await request(app, warmSet.randomElement()!)
            warm.append(lookup + silent)
            lookups.append(lookup)
            silents.append(silent)
        }
        report["warm"] = warm
        report["warmLookup"] = lookups
        report["warmSilent"] = silents
        report["nativeWarm"] = try await nativeWarm(warmSet)

        // Another machine (its own connection) writes: another user, or the same user, before each request.
        let other = try MSALRedisTokenCacheEntryStore(client: try MSALRedisClient(configuration: MSALRedisConfiguration(url: url)))
        func rewrite(_ user: Int) throws {
            let partition = MSALTokenCachePartition(clientId: CacheFixture.clientId, homeAccountId: Self.identifier(user))
            let entries = try other.entries(in: partition)
            guard let key = entries.keys.first(where: { $0.hasPrefix("RefreshToken:") }) else { throw EmulatorError("no refresh token") }
            try other.write(
                MSALTokenCacheEntryWrite(
                    partition: partition, set: [key: MSALTokenCacheEntryValue(data: entries[key]!, expiresOn: nil)], remove: []))
        }
        var otherWrite: [UInt64] = []
        try await stage { _ in
            let user = warmSet.randomElement()!
            try rewrite((user + 1 + Int.random(in: 0..<(users - 1))) % users)
            let (lookup, silent) = try await request(app, user)
            otherWrite.append(lookup + silent)
        }
        report["otherWrite"] = otherWrite
        // A write to the request's own user, reported by Redis (2 ms allowed for the report to
        // arrive): the request reads the partition once.
        var sameWriteTracked: [UInt64] = []
        try await stage { _ in
            let user = warmSet.randomElement()!
            try rewrite(user)
            usleep(2_000)
            let (lookup, silent) = try await request(app, user)
            sameWriteTracked.append(lookup + silent)
        }
        report["sameWriteTracked"] = sameWriteTracked

        // checkInterval 0: every request asks Redis for its own user's version; after a write to
        // that user, it reads the partition again.
        let checking = try application(checkInterval: 0)
        for user in warmSet { _ = try await request(checking, user) }
        var checked: [UInt64] = []
        var sameWrite: [UInt64] = []
        try await stage { _ in
            let (lookup, silent) = try await request(checking, warmSet.randomElement()!)
            checked.append(lookup + silent)
        }
        try await stage { _ in
            let user = warmSet.randomElement()!
            try rewrite(user)
            let (lookup, silent) = try await request(checking, user)
            sameWrite.append(lookup + silent)
        }
        report["checkEveryCall"] = checked
        report["sameWrite"] = sameWrite

        try await slowRedis(into: &report)
        report["signOut"] = try await signOutSeen(app, warmSet, other)
        let polling = try application(checkInterval: interval, tracksChanges: false)
        for user in warmSet { _ = try await request(polling, user) }
        report["signOutPolling"] = try await signOutSeen(polling, warmSet, other)
        return report
    }

    /// Every user once, round robin, on a new application: RSS under the memory limit. Before the
    /// other stages, so that the RSS is that of one application, as a worker has.
    func roundRobin(into report: inout [String: Any]) async throws {
        let serving = try application(checkInterval: interval)
        var roundRobin: [UInt64] = []
        roundRobin.reserveCapacity(users)
        let began = now()
        // Bounded, for an SDK slow enough that a pass would take hours: the users served are reported.
        let budget = UInt64(max(120, seconds * 40) * 1e9)
        for user in 0..<users where now() - began < budget {
            let (lookup, silent) = try await request(serving, user)
            roundRobin.append(lookup + silent)
        }
        report["roundRobinSeconds"] = Double(now() - began) / 1e9
        report["roundRobin"] = roundRobin
        report["rssAfterRoundRobin"] = currentRSSMegabytes() ?? 0
        report["peakRSS"] = peakRSSMegabytes() ?? 0
    }

    /// Another machine signs a user out (its partition removed, as the SDK's sign-out does); this
    /// worker, which holds the user, asks for the user's token every 100 µs: the time until it no
    /// longer gets one. Each user's entries are written back after.
    func signOutSeen(_ app: MSALPublicClientApplication, _ warmSet: [Int], _ other: MSALRedisTokenCacheEntryStore) async throws
        -> [UInt64]
    {
        var samples: [UInt64] = []
        var users = warmSet.shuffled()[...]
        try await stage(least: 10, most: warmSet.count) { _ in
            let user = users.popFirst()!
            _ = try await request(app, user)
            let partition = MSALTokenCachePartition(clientId: CacheFixture.clientId, homeAccountId: Self.identifier(user))
            let entries = try other.entries(in: partition)
            let start = now()
            try other.removePartition(partition)
            while (try? await request(app, user)) != nil {
                guard now() - start < 10_000_000_000 else { throw EmulatorError("a signed-out user still served after 10 s") }
                usleep(100)
            }
            samples.append(now() - start)
            // Signed in again, for the next size's run over the same Redis.
            try other.write(
                MSALTokenCacheEntryWrite(
                    partition: partition, set: entries.mapValues { MSALTokenCacheEntryValue(data: $0, expiresOn: nil) }, remove: []))
        }
        return samples
    }

    /// Warm requests on the native-auth surface: `nativeAuthUserAccount(forIdentifier:)`, then
    /// `getAccessToken` (a new application over its own connection, the warm set served once first).
    func nativeWarm(_ warmSet: [Int]) async throws -> [UInt64] {
        let app = try nativeApplication(url: url)
        for user in warmSet { try await nativeRequest(app, user) }
        var samples: [UInt64] = []
        try await stage { _ in
            samples.append(try await nativeRequest(app, warmSet.randomElement()!))
        }
        return samples
    }

    /// A new native-auth application over its own connection to Redis at `url`.
    func nativeApplication(url: String) throws -> MSALNativeAuthPublicClientApplication {
        let store = try MSALRedisTokenCacheEntryStore(client: try MSALRedisClient(configuration: try MSALRedisConfiguration(url: url)))
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: CacheFixture.clientId, authority: try MSALCIAMAuthority(url: URL(string: CacheFixture.authority)!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .entryStore(store, checkInterval: interval)
        config.tokenCacheMemoryLimit = memoryLimit
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    /// One native-auth request for `user`, checking that the token is that user's: its time (ns),
    /// the look-up and the call, as `request` times them (the id and scopes made before).
    @discardableResult
    func nativeRequest(_ app: MSALNativeAuthPublicClientApplication, _ user: Int) async throws -> UInt64 {
        let identifier = Self.identifier(user)
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [CacheFixture.scope(user % scopeSets)]
        let start = now()
        let token = try await app.nativeAuthUserAccount(forIdentifier: identifier).getAccessToken(parameters: parameters)
        let done = now()
        guard token.accessToken == CacheFixture.secret(account: user, scopeSet: user % scopeSets) else {
            throw EmulatorError("user \(user) was given another user's token")
        }
        return done - start
    }

    /// 200 requests at once for users this worker has not served, through a proxy that makes
    /// Redis answer 20 ms late, while one task keeps asking for users already held: the burst's
    /// total time, and the warm requests' times meanwhile. Twice: on the native-auth surface
    /// (`slowBurstSeconds`, `slowWarm`), whose `async` look-up reads a cold account on the cache's
    /// own threads, and on the standard one (`slowBurstStandardSeconds`, `slowWarmStandard`, also
    /// written to standard error), whose synchronous `account(forIdentifier:)` reads it on the
    /// calling task's thread, so that the burst there is bounded by Swift's few pool threads.
    func slowRedis(into report: inout [String: Any]) async throws {
        guard let port = Int(url.split(separator: ":").last ?? "") else { throw EmulatorError("no port in \(url)") }
        let proxy = try DelayProxy(targetPort: port, delay: 0.020)
        let users = Array(0..<self.users).shuffled()
        let held = Array(users.prefix(min(20, self.users / 2)))
        let native = try nativeApplication(url: proxy.url)
        let (nativeBurst, nativeWarm) = try await burst(held: held, cold: Array(users.dropFirst(held.count).prefix(200))) { user in
            try await nativeRequest(native, user)
        }
        report["slowBurstSeconds"] = nativeBurst
        report["slowBurstUsers"] = min(200, self.users - held.count)
        report["slowWarm"] = nativeWarm
        let app = try application(checkInterval: interval, url: proxy.url)
        let (standardBurst, standardWarm) = try await burst(held: held, cold: Array(users.dropFirst(held.count).prefix(200))) { user in
            _ = try await request(app, user)
        }
        report["slowBurstStandardSeconds"] = standardBurst
        report["slowWarmStandard"] = standardWarm
        FileHandle.standardError.write(
            Data(
                "redis-scale-worker: 200 cold requests, Redis 20 ms late: native \(Int(nativeBurst * 1000)) ms, standard \(Int(standardBurst * 1000)) ms; warm meanwhile p50 native \(Int(quantile(nativeWarm, 0.5))) µs, standard \(Int(quantile(standardWarm, 0.5))) µs\n"
                    .utf8))
    }

    /// `request` for every user of `held`, then for every user of `cold` at once while one task
    /// keeps asking for users of `held`: the burst's seconds and the held requests' times (ns).
    func burst(held: [Int], cold: [Int], _ request: @escaping @Sendable (Int) async throws -> Void) async throws -> (Double, [UInt64]) {
        for user in held { try await request(user) }
        let done = Locked(false)
        let start = now()
        let warmTask = Task {
            var samples: [UInt64] = []
            while !done.withLock({ $0 }) {
                let began = now()
                try await request(held.randomElement()!)
                samples.append(now() - began)
                await Task.yield()
            }
            return samples
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in cold { group.addTask { try await request(user) } }
            try await group.waitForAll()
        }
        let total = now() - start
        done.withLock { $0 = true }
        return (Double(total) / 1e9, try await warmTask.value)
    }
}

/// The `q` quantile of samples in ns, in µs.
func quantile(_ samples: [UInt64], _ q: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1000
}
