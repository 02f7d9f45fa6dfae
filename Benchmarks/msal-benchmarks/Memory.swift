import Foundation

// MARK: 7. Memory

/// The memory figure's process: `msal-cache-stress hold`, which links the SDK alone (as an app
/// does; this program also carries the emulator, OpenSSL and libmicrohttpd), loads the cache and
/// gets 100 cached tokens. It prints its resident set at start and its peak.
func memory(selfPath: String, demoPath: String?) throws -> [Row] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-memory-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("token_cache.json")
    try CacheFixture.write(to: file, accounts: 100, scopeSets: 100)
    let holder = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("msal-cache-stress").path
    let output = try run(holder, ["hold", file.path, CacheFixture.clientId, CacheFixture.authority] + (0..<100).map(CacheFixture.scope))
    let figures = output.output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    let (start, peak) = figures.count == 2 && output.status == 0 ? (figures[0], figures[1]) : (-1, -1)
    var rows = [
        Row(
            figure: "peak RSS, a process holding 10,000 tokens after 100 look-ups",
            measured: "\(format(peak)) MB (\(format(start)) MB at start)",
            target: "≤ 40 MB", met: peak > 0 && peak <= 40)
    ]
    if let demoPath, let demo = demoScenarioPeakRSS(demoPath) {
        rows.append(
            Row(
                figure: "peak RSS, terminal demo after sign-in, API 1, API 2, sign-out", measured: "\(format(demo)) MB", target: "≤ 60 MB",
                met: demo <= 60))
    } else {
        rows.append(Row(figure: "peak RSS, terminal demo", measured: "not measured (no tmux or demo binary)", target: "≤ 60 MB", met: nil))
    }
    return rows
}

/// Drives the demo in a private tmux session through the full scenario, then reads its VmHWM.
func demoScenarioPeakRSS(_ demo: String) -> Double? {
    let socket = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString.prefix(8)).tmux").path
    let tmux = "/usr/bin/tmux"
    guard FileManager.default.isExecutableFile(atPath: tmux), FileManager.default.isExecutableFile(atPath: demo) else { return nil }
    defer {
        _ = try? run(tmux, ["-S", socket, "kill-server"])
        unlink(socket)
    }
    func keys(_ list: [String]) { _ = try? run(tmux, ["-S", socket, "send-keys"] + list) }
    func type(_ text: String) { _ = try? run(tmux, ["-S", socket, "send-keys", "-l", text]) }
    func screen() -> String { (try? run(tmux, ["-S", socket, "capture-pane", "-p"]).output) ?? "" }
    func waitFor(_ text: String) -> Bool {
        for _ in 0..<300 where !screen().contains(text) { usleep(50_000) }
        return screen().contains(text)
    }
    _ = try? run(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "-e", "LANG=C.UTF-8", demo])
    guard waitFor("Tab/arrows move") else { return nil }
    type("ada@example.com")
    keys(["Tab"])
    type("Analytical-Engine-1843")
    keys(["Enter"])
    guard waitFor("Signed in as") else { return nil }
    keys(["Enter"]) // after a sign-in the focus is on API 1
    guard waitFor("todolist") else { return nil }
    keys(["Tab", "Enter"])
    guard waitFor("\"profile\"") else { return nil }
    keys(["BTab", "BTab", "Enter"])
    guard waitFor("Signed out") else { return nil }
    let pid =
        (try? run(tmux, ["-S", socket, "display-message", "-p", "#{pane_pid}"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
        ?? ""
    let peak = peakRSSMegabytes(pid: pid)
    keys(["C-c"])
    return peak
}
