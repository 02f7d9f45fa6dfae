import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Nanoseconds from a monotonic clock.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Percentiles of a sample (nanoseconds in, microseconds out).
struct Stats: Codable {
    var p50: Double
    var p99: Double
    var mean: Double
    var count: Int

    init(_ samples: [UInt64]) {
        let sorted = samples.sorted()
        func at(_ q: Double) -> Double { Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1000 }
        p50 = at(0.50)
        p99 = at(0.99)
        mean = Double(sorted.reduce(0, +)) / Double(max(1, sorted.count)) / 1000
        count = sorted.count
    }
}

/// Starts a program with `posix_spawn` and an empty signal mask (this program's threads block most
/// signals, and a child would inherit that); `streams` sets up its standard streams (inherited
/// when it does nothing); `environment` is added to this process's.
func spawnProgram(
    _ path: String, _ arguments: [String], environment: [String: String] = [:],
    streams: (inout posix_spawn_file_actions_t) -> Void = { _ in }
) throws -> pid_t {
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { _, new in new }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    return try spawn(path, argv: argv, envp: envp, streams: streams)
}

/// `spawnProgram` with the arguments and environment already as C arrays (each ending in nil),
/// for a program started many times.
func spawn(
    _ path: String, argv: [UnsafeMutablePointer<CChar>?], envp: [UnsafeMutablePointer<CChar>?],
    streams: (inout posix_spawn_file_actions_t) -> Void
) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    streams(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
    return pid
}

/// Runs a program to completion and returns its standard output. Uses posix_spawn and waitpid
/// (Foundation's Process waits for every inheritor of a descriptor, which a daemon never closes).
func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)").path
    defer { unlink(output) }
    let pid = try spawnProgram(path, arguments, environment: environment) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    let status = wait(pid)
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    return (status, text)
}

/// Peak resident set size (VmHWM) of a process, in MB.
func peakRSSMegabytes(pid: String = "self") -> Double? { statusMegabytes("VmHWM:", pid: pid) }

/// Resident set size now (VmRSS) of this process, in MB.
func currentRSSMegabytes() -> Double? { statusMegabytes("VmRSS:", pid: "self") }

private func statusMegabytes(_ field: String, pid: String) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes / 1024
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
