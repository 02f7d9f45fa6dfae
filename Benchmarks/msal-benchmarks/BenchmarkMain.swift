import Foundation
import MSAL

/// `msal-benchmarks`: the figures of BENCHMARKS.md, side by side with MSAL for Python where it
/// has a counterpart, in one run. Prints a table and writes the same figures as JSON.
///
///     msal-benchmarks [--python PATH] [--json FILE] [--demo PATH] [--quick] [--only FIGURE] [--sign-ins N]
///                     [--static-build DIR] [--token-command PATH ARGS…]
///                     [--users N,N,…] [--stage-seconds S] [--memory-limit-mb M] [--check-interval S]
///
/// `--only redis-scale` (run only when named: it seeds up to 100,000 users): `--users` the sizes
/// (1000,10000,100000), `--stage-seconds` how long each stage of a worker runs (3),
/// `--memory-limit-mb` the worker's `tokenCacheMemoryLimit` (the SDK's default), `--check-interval`
/// its `.entryStore` check interval (1); Benchmarks/msal-benchmarks/RedisScale.swift.
///
/// `--static-build DIR`: where `msal-fresh-token` and `bare-foundation` built with
/// `--static-swift-stdlib` are, for the fresh-process figure; `--token-command` (last, it takes the
/// rest of the line): a command that prints one cached token, timed there in place of the SDK probe.
@main
struct BenchmarkMain {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let selfPath = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        if arguments.first == "single-flight-worker" { exit(await singleFlightWorker(Array(arguments.dropFirst()))) }
        if arguments.first == "redis-scale-worker" { exit(await redisScaleWorker(Array(arguments.dropFirst()))) }
        // `msal-benchmarks held-cost USERS [SCOPE_SETS]`: the heap a held partition costs (HeldCost.swift).
        if arguments.first == "held-cost" { exit(await heldCost(Array(arguments.dropFirst()))) }
        // `msal-benchmarks warm-loop USERS SECONDS`: the warm request in a loop, for a profiler (HeldCost.swift).
        if arguments.first == "warm-loop" { exit(await warmLoop(Array(arguments.dropFirst()))) }
        if arguments.first == "redis-writer" { exit(redisWriter(Array(arguments.dropFirst()))) }
        // `msal-benchmarks lookup-loop FILE SCOPE_SET COUNT`: cached look-ups only, for a profiler.
        if arguments.first == "lookup-loop" { exit(await lookupLoop(Array(arguments.dropFirst()))) }
        // `msal-benchmarks write-cache FILE ACCOUNTS SCOPE_SETS`: the figures' cache file, for profiling by hand.
        if arguments.first == "write-cache", arguments.count == 4, let accounts = Int(arguments[2]), let sets = Int(arguments[3]) {
            do {
                try CacheFixture.write(to: URL(fileURLWithPath: arguments[1]), accounts: accounts, scopeSets: sets)
                exit(0)
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        }
        var python: String?
        var json = "benchmarks.json"
        var demo: String?
        var quick = false
        var only: String?
        var signIns: Int?
        var fresh = FreshTokenOptions()
        var scale = RedisScaleOptions()
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--python": python = arguments.isEmpty ? nil : arguments.removeFirst()
            case "--json": json = arguments.isEmpty ? json : arguments.removeFirst()
            case "--demo": demo = arguments.isEmpty ? nil : arguments.removeFirst()
            case "--quick": quick = true
            case "--only": only = arguments.isEmpty ? nil : arguments.removeFirst()
            case "--sign-ins" where Int(arguments.first ?? "").map({ $0 >= 4 }) == true: signIns = Int(arguments.removeFirst())
            case "--users" where !arguments.isEmpty:
                scale.users = arguments.removeFirst().split(separator: ",").compactMap { Int($0) }.filter { $0 > 1 }
            case "--stage-seconds" where Double(arguments.first ?? "") != nil: scale.stageSeconds = Double(arguments.removeFirst())!
            case "--memory-limit-mb" where Int(arguments.first ?? "") != nil: scale.memoryLimitMB = Int(arguments.removeFirst())!
            case "--check-interval" where Double(arguments.first ?? "") != nil: scale.checkInterval = Double(arguments.removeFirst())!
            case "--static-build" where !arguments.isEmpty: fresh.staticBuild = arguments.removeFirst()
            case "--token-command" where !arguments.isEmpty:
                fresh.tokenCommand = arguments
                arguments = []
            default:
                FileHandle.standardError.write(
                    Data(
                        ("usage: msal-benchmarks [--python PATH] [--json FILE] [--demo PATH] [--quick] [--only FIGURE] [--sign-ins N]"
                            + " [--static-build DIR] [--token-command PATH ARGS…]"
                            + " [--users N,N,…] [--stage-seconds S] [--memory-limit-mb M] [--check-interval S]\n").utf8))
                exit(2)
            }
        }
        do {
            var rows: [Row] = []
            func section(_ name: String, _ more: [Row]) {
                FileHandle.standardError.write(Data("measured: \(name)\n".utf8))
                rows += more
            }
            func wanted(_ name: String) -> Bool { only == nil || only == name }
            if wanted("round-trips") { section("round trips", try await roundTrips()) }
            var latency: [LatencyResult] = []
            if wanted("latency") {
                let (latencyRows, results) = try await cachedLatency(python: python, iterations: quick ? 2_000 : 20_000)
                latency = results
                section("cached latency", latencyRows)
            }
            if wanted("single-flight") { section("single-flight", try await singleFlight(selfPath: selfPath)) }
            if wanted("persistence") { section("persistence", try persistence(python: python)) }
            if wanted("throughput") { section("throughput", try await throughput()) }
            if wanted("emulator") { section("emulator", try await emulator(selfPath: selfPath, quick: quick)) }
            if wanted("overhead") { section("overhead", try await overhead(iterations: quick ? 5 : 30)) }
            if wanted("memory") { section("memory", try memory(selfPath: selfPath, demoPath: demo)) }
            if wanted("proactive-refresh") { section("proactive refresh", try await proactiveRefresh()) }
            if wanted("fresh-token") {
                fresh.runs = quick ? 10 : 30
                section("fresh process", try freshToken(selfPath: selfPath, python: python, options: fresh))
            }
            if wanted("saved-state") { section("saved state", try await savedStateSize(iterations: quick ? 200 : 2_000)) }
            if wanted("shared-cache") {
                section(
                    "shared cache", try await sharedCache(iterations: quick ? 2_000 : 20_000, writesPerWriter: quick ? 50 : 1_000))
            }
            if wanted("redis") {
                section(
                    "redis",
                    try await redisCache(
                        selfPath: selfPath, python: python, iterations: quick ? 2_000 : 20_000, writesPerWriter: quick ? 20 : 50))
            }
            if only == "redis-scale" { section("redis scale", try redisScale(selfPath: selfPath, python: python, options: scale)) }
            if wanted("load") { section("load", try await load(signIns: signIns ?? (quick ? 1_000 : 10_000))) }

            let width = rows.map(\.figure.count).max() ?? 40
            print("| " + "figure".padding(toLength: width, withPad: " ", startingAt: 0) + " | measured | target | met |")
            print("|" + String(repeating: "-", count: width + 2) + "|---|---|---|")
            for row in rows {
                let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
                print(
                    "| " + row.figure.padding(toLength: width, withPad: " ", startingAt: 0)
                        + " | \(row.measured) | \(row.target) | \(met) |")
            }
            struct Report: Encodable {
                var date: String
                var machine: String
                var rows: [Row]
                var latency: [LatencyResult]
            }
            let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB"
            let report = Report(date: ISO8601DateFormatter().string(from: Date()), machine: machine, rows: rows, latency: latency)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: json))
            FileHandle.standardError.write(Data("wrote \(json)\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("msal-benchmarks: \(error)\n".utf8))
            exit(1)
        }
    }
}
