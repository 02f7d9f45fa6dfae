import Foundation
import NativeAuthEmulator

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: Emulator: the server's own overhead, in a separate process

/// The `native-auth-emulator` command as a child process: spawned with posix_spawn, its banner
/// read from a pipe, stopped with SIGTERM (SIGKILL if it does not exit within 3 s) and always
/// reaped. Foundation's `Process` is not used: it waits for every holder of the output pipe.
final class EmulatorChild {
    let pid: pid_t
    private let output: Int32
    private var reaped = false

    init(path: String, arguments: [String]) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try spawnProgram(path, arguments) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        self.pid = pid
        output = fds[0]
    }

    deinit {
        stop()
        close(output)
    }

    /// Reads standard output until the `authority: ` line; returns the base URL and authority.
    func banner(timeout seconds: Double) throws -> (baseURL: String, authority: String) {
        let deadline = now() + UInt64(seconds * 1e9)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while now() < deadline {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() // complete lines only
            if let base = lines.first(where: { $0.hasPrefix("base URL: ") }),
                let authority = lines.first(where: { $0.hasPrefix("authority: ") })
            {
                return (String(base.dropFirst("base URL: ".count)), String(authority.dropFirst("authority: ".count)))
            }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, (deadline - min(deadline, now())) / 1_000_000))
            guard poll(&poller, 1, left) > 0 else { continue }
            let count = read(output, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw EmulatorError("the emulator exited before printing its banner: \(text)") }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        throw EmulatorError("no banner from the emulator within \(seconds) s")
    }

    /// SIGTERM, then SIGKILL after 3 s; waits for the child either way. Safe to call twice.
    @discardableResult
    func stop() -> Int32? {
        guard !reaped else { return nil }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = now() + 3_000_000_000
        while now() < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno != EINTR) {
                reaped = true
                return result == pid ? status : nil
            }
            usleep(5_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        reaped = true
        return status
    }
}

/// One HTTP/1.0 GET to 127.0.0.1 over a plain socket; the status code, or nil if nothing answered
/// (refused, closed, or no answer within a second).
func loopbackGetStatus(port: UInt16, path: String) -> Int? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
    var head = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 1024)
    while head.count < 16 {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        head += buffer[0..<count]
    }
    // "HTTP/1.x NNN ..."
    let line = String(decoding: head, as: UTF8.self)
    guard line.hasPrefix("HTTP/1."), line.count >= 12 else { return nil }
    return Int(line.dropFirst(9).prefix(3))
}

/// Runs `count` jobs from `concurrency` tasks, stopping early at `limit` seconds; returns the
/// completed and failed counts and the seconds taken.
func drive(count: Int, concurrency: Int, limit seconds: Double, _ job: @escaping @Sendable () async -> Bool) async -> (
    completed: Int, failed: Int, seconds: Double
) {
    let budget = Budget(count)
    let done = Tally()
    let begin = now()
    let deadline = begin + UInt64(seconds * 1e9)
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                while now() < deadline, budget.take() {
                    if await job() { done.add(completed: 1) } else { done.add(failed: 1) }
                }
            }
        }
    }
    let (completed, failed) = done.totals
    return (completed, failed, Double(now() - begin) / 1e9)
}

func emulator(selfPath: String, quick: Bool) async throws -> [Row] {
    let path = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("native-auth-emulator").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        return [
            Row(
                figure: "emulator password sign-ins/s, concurrency 16, separate process",
                measured:
                    "not measured (no native-auth-emulator next to msal-benchmarks: swift build -c release --product native-auth-emulator)",
                target: "≥ 60% of the in-process router", met: nil)
        ]
    }
    let arguments = ["--port", "0", "--quiet"]
    let discoveryPath = "/\(Seed.demo.tenant.subdomain).onmicrosoft.com/v2.0/.well-known/openid-configuration"

    // Startup: posix_spawn to the first 200 answer to the discovery document, fresh process each time.
    var startups: [UInt64] = []
    for _ in 0..<(quick ? 3 : 7) {
        let start = now()
        let child = try EmulatorChild(path: path, arguments: arguments)
        defer { child.stop() }
        let (baseURL, _) = try child.banner(timeout: 10)
        guard let port = URL(string: baseURL)?.port.flatMap({ UInt16(exactly: $0) }) else {
            throw EmulatorError("no port in the banner's base URL \(baseURL)")
        }
        var answered = false
        while !answered, now() - start < 10_000_000_000 {
            if loopbackGetStatus(port: port, path: discoveryPath) == 200 { answered = true } else { usleep(1_000) }
        }
        guard answered else { throw EmulatorError("the emulator did not answer within 10 s") }
        startups.append(now() - start)
    }
    let startup = Stats(startups)
    // Of which the router's construction (a fresh RSA signing key, the seeded users' password hashes).
    var constructions: [UInt64] = []
    for _ in 0..<startups.count {
        let start = now()
        _ = try EmulatorRouter()
        constructions.append(now() - start)
    }
    let construction = Stats(constructions)
    let startupMax = Double(startups.max() ?? 0) / 1e6

    // The same work both ways, interleaved: the router called directly (default configuration, the
    // demo seed: what the command runs with), and the command over loopback from this process.
    let router = try EmulatorRouter()
    let tenant = "/\(router.seed.tenant.subdomain).onmicrosoft.com"
    let form = ["content-type": "application/x-www-form-urlencoded"]
    let client = "client_id=\(Demo.passwordApp)&challenge_type=oob+password+redirect"
    @Sendable func routerSignIn() -> Bool {
        func call(_ path: String, _ body: String) -> [String: Any] {
            let response = router.handle(
                EmulatorRequest(method: "POST", path: tenant + path, headers: form, body: Data(body.utf8), baseURL: "http://127.0.0.1"))
            return ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]) ?? [:]
        }
        let t0 = call("/oauth2/v2.0/initiate", client + "&username=ada%40example.com")["continuation_token"] as? String ?? ""
        let t1 = call("/oauth2/v2.0/challenge", client + "&continuation_token=\(t0)")["continuation_token"] as? String ?? ""
        let tokens = call(
            "/oauth2/v2.0/token",
            client + "&continuation_token=\(t1)&grant_type=password&username=ada%40example.com"
                + "&password=Analytical-Engine-1843&scope=openid+profile+offline_access&client_info=true")
        return tokens["access_token"] != nil
    }
    @Sendable func routerDiscovery() -> Bool {
        router.handle(EmulatorRequest(method: "GET", path: discoveryPath, headers: [:], body: Data(), baseURL: "http://127.0.0.1")).status
            == 200
    }

    let child = try EmulatorChild(path: path, arguments: arguments)
    defer { child.stop() }
    let (baseURL, authority) = try child.banner(timeout: 10)
    let bare = BareClient(authority: authority, connections: 16)
    defer { bare.session.invalidateAndCancel() }
    let discoveryURL = URL(string: baseURL + discoveryPath)!
    @Sendable func serverSignIn() async -> Bool { (try? await bare.passwordSignIn())?["access_token"] != nil }
    @Sendable func serverDiscovery() async -> Bool {
        guard let (_, response) = try? await bare.session.data(from: discoveryURL) else { return false }
        return (response as? HTTPURLResponse)?.statusCode == 200
    }

    let concurrency = 16
    let signIns = quick ? 200 : 500
    let rounds = 2
    _ = await drive(count: 32, concurrency: concurrency, limit: 10) { routerSignIn() }
    _ = await drive(count: 32, concurrency: concurrency, limit: 10) { await serverSignIn() }
    var routerTotal = (completed: 0, failed: 0, seconds: 0.0)
    var serverTotal = (completed: 0, failed: 0, seconds: 0.0)
    for _ in 0..<rounds {
        let r = await drive(count: signIns, concurrency: concurrency, limit: 30) { routerSignIn() }
        let s = await drive(count: signIns, concurrency: concurrency, limit: 30) { await serverSignIn() }
        routerTotal = (routerTotal.completed + r.completed, routerTotal.failed + r.failed, routerTotal.seconds + r.seconds)
        serverTotal = (serverTotal.completed + s.completed, serverTotal.failed + s.failed, serverTotal.seconds + s.seconds)
    }
    let routerRate = Double(routerTotal.completed) / routerTotal.seconds
    let serverRate = Double(serverTotal.completed) / serverTotal.seconds
    let share = serverRate / routerRate

    // A trivial endpoint (the discovery document) both ways: the HTTP cost without the hashing.
    let gets = quick ? 1_000 : 4_000
    let routerGets = await drive(count: gets, concurrency: concurrency, limit: 20) { routerDiscovery() }
    let serverGets = await drive(count: gets, concurrency: concurrency, limit: 20) { await serverDiscovery() }
    let routerGetRate = Double(routerGets.completed) / routerGets.seconds
    let serverGetRate = Double(serverGets.completed) / serverGets.seconds

    let status = child.stop()
    func errors(_ failed: Int) -> String { failed > 0 ? ", \(failed) errors" : "" }
    let exitedCleanly = status.map { ($0 & 0x7f) == 0 && (($0 >> 8) & 0xff) == 0 } ?? false
    return [
        Row(
            figure: "emulator startup (spawn to first answer), \(startups.count) starts",
            measured: "median \(format(startup.p50 / 1000)) ms, max \(format(startupMax)) ms", target: "(reported)", met: nil),
        Row(
            figure: "of which EmulatorRouter() in-process (RSA key, seeded password hashes)",
            measured: "median \(format(construction.p50 / 1000)) ms, max \(format(Double(constructions.max() ?? 0) / 1e6)) ms",
            target: "(reported)", met: nil),
        Row(
            figure: "in-process router, concurrency \(concurrency): password sign-ins/s",
            measured: format(routerRate, 0) + errors(routerTotal.failed), target: "(reported: the reference)", met: nil),
        Row(
            figure: "emulator password sign-ins/s, concurrency \(concurrency), separate process",
            measured: "\(format(serverRate, 0)) (\(format(100 * share, 0))% of the in-process router's \(format(routerRate, 0))/s)"
                + errors(serverTotal.failed),
            target: "≥ 60% of the in-process router",
            met: share >= 0.6 && serverTotal.failed == 0 && routerTotal.failed == 0),
        Row(
            figure: "discovery GETs/s, concurrency \(concurrency): in-process router vs separate process",
            measured: "\(format(routerGetRate, 0)) vs \(format(serverGetRate, 0))" + errors(routerGets.failed + serverGets.failed),
            target: "(reported: HTTP cost without hashing)", met: nil),
        Row(
            figure: "emulator stopped by SIGTERM", measured: exitedCleanly ? "exit 0" : "status \(status.map(String.init) ?? "unknown")",
            target: "(reported)", met: nil),
    ]
}
