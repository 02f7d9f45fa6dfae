import Foundation
import MSAL
import MSALRedis
import NativeAuthEmulator

#if canImport(Glibc)
    import Glibc
#endif

/// The token cache on a real Redis (docs/redis.md), side by side with what a Python app does today:
/// MSAL for Python's `SerializableTokenCache` under one Redis key per user, read, changed and
/// written back whole (Benchmarks/peer_redis_cache.py). The benchmark starts its own `redis-server`
/// on a loopback port and stops it at the end.
func redisCache(selfPath: String, python: String?, iterations: Int, writesPerWriter: Int) async throws -> [Row] {
    let server = try BenchRedisServer()
    defer { server.stop() }
    let store = try MSALRedisTokenCacheEntryStore(client: try MSALRedisClient(configuration: MSALRedisConfiguration(url: server.url)))
    let sets = 10
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-redis-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("token_cache.json")
    try CacheFixture.write(to: file, accounts: 1, scopeSets: sets)
    let document = try TokenCacheDocument(json: try Data(contentsOf: file))
    let partitions = EntryStoreLayout.partitions(of: document, clientId: CacheFixture.clientId)
    for write in EntryStoreLayout.plan(from: [:], to: partitions, now: Date()).writes { try store.write(write) }
    let account = partitions.keys.first { $0.homeAccountId != nil }!

    func hits(checkInterval: TimeInterval, between: (() throws -> Void)? = nil) async throws -> Stats {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: CacheFixture.clientId, authority: try MSALCIAMAuthority(url: URL(string: CacheFixture.authority)!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .entryStore(store, checkInterval: checkInterval)
        let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        guard let user = app.getNativeAuthUserAccount() else { throw EmulatorError("no account in Redis") }
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [CacheFixture.scope(sets / 2)]
        return try await timedCachedCalls(user, parameters, iterations: iterations, between: between)
    }
    var rows: [Row] = []
    func row(_ figure: String, _ stats: Stats?) {
        guard let stats else { return }
        rows.append(
            Row(
                figure: "\(figure), \(sets) tokens (p50 / p99 µs)", measured: "\(format(stats.p50, 1)) / \(format(stats.p99, 1))",
                target: "—", met: nil))
    }
    row("Redis: cached getAccessToken, in-memory layer (checked every 1 s)", try await hits(checkInterval: 1))
    row("Redis: cached getAccessToken, asking Redis for the version on every call", try await hits(checkInterval: 0))
    var round = 0
    let reread = try await hits(checkInterval: 0) {
        round += 1
        let value = MSALTokenCacheEntryValue(data: Data(#"{"home_account_id":"\#(account.homeAccountId!)"}"#.utf8), expiresOn: nil)
        try store.write(MSALTokenCacheEntryWrite(partition: account, set: ["Account:bench-\(round % 2)": value], remove: []))
    }
    row("Redis: getAccessToken after another machine's write (reads the partition)", reread)
    rows += try partitionVersionRows(store, url: server.url, iterations: max(5, iterations / 100))

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let peer = script.appendingPathComponent("peer_redis_cache.py").path
    let uid = CacheFixture.uid(0)
    if let python {
        let scopes = (0..<sets).map(CacheFixture.scope).joined(separator: ",")
        let userKey = "msal-python:user:\(uid)"
        _ = try run(
            python, [peer, "seed", server.url, userKey, CacheFixture.clientId, CacheFixture.authority, uid, CacheFixture.utid, scopes])
        let output = try run(
            python,
            [
                peer, "hit", server.url, userKey, CacheFixture.clientId, CacheFixture.authority, CacheFixture.scope(sets / 2),
                "\(iterations / 10)",
            ])
        row("Redis: msal-python, GET + deserialize + acquire_token_silent per request", samples(output.output).map(Stats.init))
    }

    for writers in [1, 2, 4, 8] {
        let home = "writers-\(writers).\(CacheFixture.utid)"
        let swift = try concurrentRun(writers: writers) { writer, start in
            (selfPath, ["redis-writer", server.url, CacheFixture.clientId, home, "w\(writer)", "\(writesPerWriter)", start])
        }
        let entries = try store.entries(in: MSALTokenCachePartition(clientId: CacheFixture.clientId, homeAccountId: home))
        let kept = entries.keys.filter { $0.hasPrefix("AccessToken:") }.count
        rows.append(writeRow("Redis: SDK writes, \(writers) writer processes", swift, lost: writers * writesPerWriter - kept))
        guard let python else { continue }
        let userKey = "msal-python:user:writers-\(writers)"
        let peerRun = try concurrentRun(writers: writers) { writer, start in
            (
                python,
                [
                    peer, "write", server.url, userKey, CacheFixture.clientId, CacheFixture.authority, "writers-\(writers)",
                    CacheFixture.utid, "w\(writer)", "\(writesPerWriter)", start,
                ]
            )
        }
        let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: server.url))
        let blob = try client.command("GET", key: userKey).data ?? Data()
        let object = try JSONSerialization.jsonObject(with: blob) as? [String: Any]
        let tokens = (object?["AccessToken"] as? [String: Any])?.count ?? 0
        rows.append(
            writeRow("Redis: msal-python read-modify-write, \(writers) writer processes", peerRun, lost: writers * writesPerWriter - tokens)
        )
    }
    return rows
}

/// What reading every partition's version costs with 1,000 accounts in Redis (the step after
/// another machine's write, before the partitions that changed are read): the store's pipeline
/// beside the same GETs sent one at a time, one round trip each.
private func partitionVersionRows(_ store: MSALRedisTokenCacheEntryStore, url: String, iterations: Int) throws -> [Row] {
    let clientId = "versions-\(UUID().uuidString)"
    let value = MSALTokenCacheEntryValue(data: Data(#"{"bench":true}"#.utf8), expiresOn: nil)
    let partitions = (0..<1000).map { MSALTokenCachePartition(clientId: clientId, homeAccountId: "uid-\($0).\(CacheFixture.utid)") }
    for partition in partitions { try store.write(MSALTokenCacheEntryWrite(partition: partition, set: ["Account:a": value], remove: [])) }
    // The version keys as Redis lists them (the store's key layout stays its own).
    let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: url))
    let versionKeys = try client.command("KEYS", "*\(clientId)*:v").array?.compactMap(\.data) ?? []
    guard versionKeys.count == partitions.count else { throw EmulatorError("\(versionKeys.count) version keys, not \(partitions.count)") }
    var pipelined: [UInt64] = []
    var oneByOne: [UInt64] = []
    for _ in 0..<iterations {
        var start = now()
        guard try store.partitionVersions(clientId: clientId).count == partitions.count else { throw EmulatorError("versions lost") }
        pipelined.append(now() - start)
        start = now()
        for key in versionKeys { _ = try client.command("GET", key: key) }
        oneByOne.append(now() - start)
    }
    func row(_ figure: String, _ samples: [UInt64]) -> Row {
        let stats = Stats(samples)
        return Row(figure: figure + " (p50 / p99 µs)", measured: "\(format(stats.p50, 0)) / \(format(stats.p99, 0))", target: "—", met: nil)
    }
    return [
        row("Redis: every partition's version, 1,000 accounts, pipelined (the store)", pipelined),
        row("Redis: the same 1,000 GETs one at a time", oneByOne),
    ]
}

/// What a group of writer processes measured: every write's latency, and the wall time from the
/// first write of any to the last write of any (so a process that starts late costs nothing).
struct WriterRun {
    var samples: [UInt64]
    var seconds: Double
    var failures: Int
}

private func writeRow(_ figure: String, _ run: WriterRun, lost: Int) -> Row {
    let stats = Stats(run.samples.isEmpty ? [0] : run.samples)
    let failed = run.failures == 0 ? "" : ", \(run.failures) writers failed"
    return Row(
        figure: "\(figure) (writes/s; p50 / p99 ms; entries lost)",
        measured:
            "\(format(Double(run.samples.count) / run.seconds, 0)); \(format(stats.p50 / 1000, 2)) / \(format(stats.p99 / 1000, 2)); \(lost)\(failed)",
        target: "0 lost", met: lost == 0 && run.failures == 0)
}

/// Starts `writers` processes that begin writing together at a wall-clock time a moment away,
/// each printing `{"samples": [ns, ...], "begin": s, "end": s}`, and waits for all of them.
private func concurrentRun(writers: Int, command: (Int, String) -> (String, [String])) throws -> WriterRun {
    let start = Date().timeIntervalSince1970 + 1.0
    var children: [(pid: pid_t, output: String)] = []
    for writer in 0..<writers {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-writer-\(UUID().uuidString)").path
        let (path, arguments) = command(writer, String(format: "%.3f", start))
        let pid = try spawnProgram(path, arguments) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        children.append((pid, output))
    }
    var run = WriterRun(samples: [], seconds: 0, failures: 0)
    var begin = Double.infinity
    var end = 0.0
    for child in children {
        let status = wait(child.pid)
        let text = (try? String(contentsOfFile: child.output, encoding: .utf8)) ?? ""
        unlink(child.output)
        if status != 0 { run.failures += 1 }
        run.samples += samples(text) ?? []
        if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let first = (object["begin"] as? NSNumber)?.doubleValue, let last = (object["end"] as? NSNumber)?.doubleValue
        {
            begin = min(begin, first)
            end = max(end, last)
        }
    }
    run.seconds = max(0.001, end - begin)
    return run
}

private func samples(_ output: String) -> [UInt64]? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
        let raw = object["samples"] as? [NSNumber]
    else { return nil }
    return raw.map(\.uint64Value)
}

/// `msal-benchmarks redis-writer URL CLIENT HOME WRITER COUNT START`: COUNT refresh-like writes to
/// one account's partition through the SDK's entry-store cache (a new access token, under a key
/// of its own, and the account's refresh token replaced), from wall-clock time START.
func redisWriter(_ arguments: [String]) -> Int32 {
    guard arguments.count == 6, let count = Int(arguments[4]), let start = Double(arguments[5]) else { return 2 }
    let (url, clientId, home, writer) = (arguments[0], arguments[1], arguments[2], arguments[3])
    do {
        let store = try MSALRedisTokenCacheEntryStore(client: try MSALRedisClient(configuration: MSALRedisConfiguration(url: url)))
        let storage = EntryStoreTokenCacheStorage(store: store, clientId: clientId, checkInterval: 1, lease: 60, clock: SystemClock())
        _ = try storage.load(ifChangedSince: nil)
        usleep(UInt32(max(0, (start - Date().timeIntervalSince1970) * 1e6)))
        let environment = "contoso.ciamlogin.com"
        var samples: [UInt64] = []
        let begin = Date().timeIntervalSince1970
        for index in 0..<count {
            let began = now()
            let issued = Int(Date().timeIntervalSince1970)
            let target = "api://bench/\(writer)-\(index)/data.write"
            _ = try storage.update { document in
                document[.accessToken]["\(home)-\(environment)-accesstoken-\(clientId)-contoso.onmicrosoft.com-\(target)"] = [
                    "credential_type": .string("AccessToken"),
                    "secret": .string("at-\(writer)-\(index)-" + String(repeating: "x", count: 900)),
                    "home_account_id": .string(home), "environment": .string(environment), "client_id": .string(clientId),
                    "realm": .string("contoso.onmicrosoft.com"), "target": .string(target), "token_type": .string("Bearer"),
                    "cached_at": .string(String(issued)), "expires_on": .string(String(issued + 3600)),
                ]
                document[.refreshToken]["\(home)-\(environment)-refreshtoken-\(clientId)--"] = [
                    "credential_type": .string("RefreshToken"), "secret": .string("rt-\(writer)-\(index)"),
                    "home_account_id": .string(home),
                    "environment": .string(environment), "client_id": .string(clientId),
                ]
            }
            samples.append(now() - began)
        }
        let report: [String: Any] = ["samples": samples, "begin": begin, "end": Date().timeIntervalSince1970]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self))
        return 0
    } catch {
        FileHandle.standardError.write(Data("redis-writer: \(error)\n".utf8))
        return 1
    }
}

/// A `redis-server` of the benchmark's own: a free loopback port, a temporary directory, no
/// snapshots; stopped (SIGTERM, then waited for) by `stop()`.
final class BenchRedisServer {
    let port: Int
    let directory: String
    private var pid: pid_t = 0

    var url: String { "redis://127.0.0.1:\(port)" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-redis-server-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = Self.freePort()
        let configuration = [
            "bind 127.0.0.1", "port \(port)", "dir \(directory)", "save \"\"", "appendonly no", "daemonize no",
            "logfile \(directory)/redis.log", "protected-mode no",
        ]
        try (configuration.joined(separator: "\n") + "\n").write(toFile: directory + "/redis.conf", atomically: true, encoding: .utf8)
        pid = try spawnProgram("/usr/bin/redis-server", [directory + "/redis.conf"]) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: url))
        for _ in 0..<500 {
            if (try? client.ping()) != nil { return }
            usleep(10_000)
        }
        stop()
        throw EmulatorError("redis-server did not answer on port \(port) within 5 s")
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        _ = wait(pid)
        pid = 0
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A loopback port free now: bound to port 0, read, closed.
    private static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length)
                return getsockname(descriptor, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
