import Foundation
import MSAL
import MSALRedis
import NativeAuthEmulator

#if canImport(Glibc)
    import Glibc
#endif

/// `--only redis-scale`: one client's token cache on Redis with 1,000 to 100,000 users, a backend
/// worker serving them (Benchmarks/msal-benchmarks/RedisScaleWorker.swift, a process of its own),
/// side by side with MSAL for Python and redis-py, one key per user (Benchmarks/peer_redis_cache.py
/// `seed-many` and `hit-many`). The users are seeded straight into the benchmark's own
/// `redis-server`, through the entry store as the SDK lays them out (EntryStoreLayout.plan).
struct RedisScaleOptions {
    var users = [1_000, 10_000, 100_000]
    var stageSeconds = 3.0
    /// `tokenCacheMemoryLimit` in MiB (the SDK's default: 128).
    var memoryLimitMB = EntryStoreTokenCacheStorage.defaultMemoryLimit >> 20
    var checkInterval: TimeInterval = 1
    /// Access tokens per user (one per API the backend calls).
    var scopeSets = 2
}

func redisScale(selfPath: String, python: String?, options: RedisScaleOptions) throws -> [Row] {
    signal(SIGPIPE, SIG_IGN)
    let server = try BenchRedisServer()
    defer { server.stop() }
    // Interrupted (it runs for minutes), the benchmark still stops its redis-server.
    nonisolated(unsafe) let stopping = server
    let interrupts = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            stopping.stop()
            exit(128 + number)
        }
        source.resume()
        return source
    }
    defer { for source in interrupts { source.cancel() } }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let peer = script.appendingPathComponent("peer_redis_cache.py").path
    let scopes = (0..<options.scopeSets).map(CacheFixture.scope).joined(separator: ",")
    let prefix = "msal-python:user:"
    /// The Python peer's arguments for `mode`: the server, the key prefix, the client, then `rest`.
    func peerArguments(_ mode: String, _ rest: String...) -> [String] {
        [peer, mode, server.url, prefix, CacheFixture.clientId, CacheFixture.authority, CacheFixture.utid, scopes] + rest
    }
    var rows: [Row] = []
    var seeded = 0
    for users in options.users.sorted() {
        var start = now()
        try seedUsers(url: server.url, seeded..<users, scopeSets: options.scopeSets)
        let swiftSeed = Double(now() - start) / 1e9
        start = now()
        if let python {
            let seed = try run(python, peerArguments("seed-many", "\(seeded)", "\(users - seeded)"))
            guard seed.status == 0 else { throw EmulatorError("peer_redis_cache.py seed-many exited with \(seed.status)") }
        }
        let pythonSeed = Double(now() - start) / 1e9
        seeded = users
        FileHandle.standardError.write(
            Data("redis-scale: \(users) users seeded (Swift \(format(swiftSeed, 1)) s, Python \(format(pythonSeed, 1)) s)\n".utf8))

        let worker = try run(
            selfPath,
            [
                "redis-scale-worker", server.url, "\(users)", "\(options.stageSeconds)", "\(options.memoryLimitMB)",
                "\(options.checkInterval)",
                "\(options.scopeSets)",
            ])
        guard worker.status == 0, let swift = scaleReport(worker.output) else {
            throw EmulatorError("redis-scale-worker exited with \(worker.status)")
        }
        var peerReport: [String: Any]?
        if let python {
            let output = try run(python, peerArguments("hit-many", "\(users)", "\(options.stageSeconds)"))
            guard output.status == 0 else { throw EmulatorError("peer_redis_cache.py hit-many exited with \(output.status)") }
            peerReport = scaleReport(output.output)
        }
        rows += scaleRows(users: users, swift: swift, python: peerReport, options: options)
    }
    let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: server.url))
    if let info = try client.command("INFO", "memory").string,
        let line = info.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("used_memory_human:") })
    {
        rows.append(
            Row(
                figure: "Redis used_memory, \(grouped(seeded)) users"
                    + (python == nil ? " (SDK layout)" : " (SDK layout + msal-python keys)"),
                measured: String(line.dropFirst(18)),
                target: "—", met: nil))
    }
    return rows
}

private func scaleReport(_ output: String) -> [String: Any]? {
    guard let line = output.split(separator: "\n").last else { return nil }
    return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
}

private func scaleSamples(_ report: [String: Any]?, _ key: String) -> [UInt64] {
    (report?[key] as? [NSNumber])?.map(\.uint64Value) ?? []
}

/// The figure's rows for one size: Swift beside Python, p50 / p90 / p99 in µs.
private func scaleRows(users: Int, swift: [String: Any], python: [String: Any]?, options: RedisScaleOptions) -> [Row] {
    let size = grouped(users)
    func spread(_ report: [String: Any]?, _ key: String) -> String {
        let samples = scaleSamples(report, key)
        guard !samples.isEmpty else { return "—" }
        return [0.5, 0.9, 0.99].map { format(quantile(samples, $0), quantile(samples, $0) < 100 ? 1 : 0) }.joined(separator: " / ")
    }
    func row(_ what: String, _ key: String, _ pythonKey: String? = nil, target: String = "—", met: Bool? = nil) -> Row {
        var measured = "Swift " + spread(swift, key)
        if let python { measured += " · Python " + spread(python, pythonKey ?? key) }
        return Row(figure: "\(size) users: \(what) (p50 / p90 / p99 µs)", measured: measured, target: target, met: met)
    }
    let warm = quantile(scaleSamples(swift, "warm"), 0.5)
    let pythonWarm = python.map { quantile(scaleSamples($0, "warm"), 0.5) }
    let first = quantile(scaleSamples(swift, "first"), 0.5)
    let mb = { (report: [String: Any]?, key: String) in (report?[key] as? NSNumber)?.doubleValue ?? .nan }
    let rssTarget = mb(swift, "baselineRSS") + Double(options.memoryLimitMB)
    var rssMeasured =
        "Swift \(format(mb(swift, "rssAfterRoundRobin"), 0)) MB (peak \(format(mb(swift, "peakRSS"), 0)), baseline \(format(mb(swift, "baselineRSS"), 0)))"
    if let python {
        rssMeasured += " · Python \(format(mb(python, "rssAfterRoundRobin"), 0)) MB (peak \(format(mb(python, "peakRSS"), 0)))"
    }
    let served = scaleSamples(swift, "roundRobin").count
    var pass = "Swift \(format(mb(swift, "roundRobinSeconds"), 2)) s" + (served < users ? " (stopped after \(grouped(served)) users)" : "")
    if let python { pass += " · Python \(format(mb(python, "roundRobinSeconds"), 2)) s" }
    return [
        row(
            "warm request, user by id + cached token", "warm", target: "≤ 10 µs p50, ≥ 15× Python",
            met: warm <= 10 && pythonWarm.map { $0 / warm >= 15 } ?? true),
        row("  of which account(forIdentifier:)", "warmLookup"),
        row("  of which acquireTokenSilent", "warmSilent"),
        row("warm request, native auth: nativeAuthUserAccount(forIdentifier:) + getAccessToken", "nativeWarm", "warm"),
        row("request after another machine wrote another user", "otherWrite", target: "as a warm request"),
        row("request after a write to the same user, reported by Redis", "sameWriteTracked", target: "one partition read"),
        row("request, checkInterval 0 (version asked every call)", "checkEveryCall", "warm"),
        row("request after a write to the same user (checkInterval 0)", "sameWrite", target: "one partition read"),
        row(
            "a new worker's first request for a user", "first", target: "≤ 5 ms p50 at 100,000",
            met: users == 100_000 ? first <= 5_000 : nil),
        row("every user once, round robin (cold: one partition read each)", "roundRobin"),
        Row(figure: "\(size) users: round robin, whole pass", measured: pass, target: "—", met: nil),
        Row(
            figure: "\(size) users: worker RSS after serving every user (tokenCacheMemoryLimit \(options.memoryLimitMB) MiB)",
            measured: rssMeasured, target: "≤ baseline + limit (\(format(rssTarget, 0)) MB)",
            met: mb(swift, "rssAfterRoundRobin") <= rssTarget),
        Row(
            figure: "\(size) users: 200 concurrent requests for cold users, Redis 20 ms late (a proxy): all answered after",
            measured: "Swift \(format(mb(swift, "slowBurstSeconds") * 1000, 0)) ms", target: "about one round trip (20 ms)",
            met: mb(swift, "slowBurstSeconds") < 0.1),
        Row(
            figure: "\(size) users: warm requests meanwhile (p50 / p90 / p99 µs, count)",
            measured: "Swift " + spread(swift, "slowWarm") + ", \(scaleSamples(swift, "slowWarm").count)", target: "as a warm request",
            met: nil),
        Row(
            figure: "\(size) users: 200 concurrent cold requests on the standard surface (sync account(forIdentifier:)), Redis 20 ms late",
            measured: "Swift \(format(mb(swift, "slowBurstStandardSeconds") * 1000, 0)) ms", target: "—", met: nil),
        Row(
            figure: "\(size) users: another machine signs a user out: this worker stops serving its token after (p50 / p90 / p99 ms)",
            measured: "with CLIENT TRACKING " + signOut(swift, "signOut")
                + " · polling (checkInterval \(format(options.checkInterval, 1)) s) "
                + signOut(swift, "signOutPolling") + (python == nil ? "" : " · Python 0 (reads every request)"),
            target: "with tracking: milliseconds", met: quantile(scaleSamples(swift, "signOut"), 0.99) < 100_000),
    ]
}

/// Sign-out delays in ms, p50 / p90 / p99 (2 decimals below 10 ms).
private func signOut(_ report: [String: Any], _ key: String) -> String {
    let samples = scaleSamples(report, key)
    guard !samples.isEmpty else { return "—" }
    return [0.5, 0.9, 0.99].map { quantile(samples, $0) / 1000 }.map { format($0, $0 < 10 ? 2 : 0) }.joined(separator: " / ")
}

/// Users `range` written into Redis as the SDK lays them out: documents of 1,000 users made by
/// CacheFixture, split into partitions, written by four connections at once.
private func seedUsers(url: String, _ range: Range<Int>, scopeSets: Int) throws {
    let batches = Array(stride(from: range.lowerBound, to: range.upperBound, by: 1_000))
    let threads = 4
    let failure = Locked<(any Error)?>(nil)
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        do {
            let store = try MSALRedisTokenCacheEntryStore(client: try MSALRedisClient(configuration: MSALRedisConfiguration(url: url)))
            for (index, first) in batches.enumerated() where index % threads == thread {
                let accounts = first..<min(first + 1_000, range.upperBound)
                let document = try TokenCacheDocument(json: try CacheFixture.document(accounts: accounts, scopeSets: scopeSets))
                let partitions = EntryStoreLayout.partitions(of: document, clientId: CacheFixture.clientId)
                for write in EntryStoreLayout.plan(from: [:], to: partitions, now: Date()).writes { try store.write(write) }
            }
        } catch {
            failure.withLock { $0 = $0 ?? error }
        }
    }
    if let error = failure.withLock({ $0 }) { throw error }
}

/// 100000 as "100,000".
func grouped(_ number: Int) -> String {
    var digits = String(number)
    var groups: [String] = []
    while digits.count > 3 {
        groups.insert(String(digits.suffix(3)), at: 0)
        digits.removeLast(3)
    }
    return ([digits] + groups).joined(separator: ",")
}
