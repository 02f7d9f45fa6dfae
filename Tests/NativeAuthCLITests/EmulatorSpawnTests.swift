import Foundation
import Testing

@testable import NativeAuthCLI

#if canImport(Glibc)
    import Glibc
#endif

/// The background emulator's process gets stdin, stdout and stderr and no other descriptor of the
/// tool, even one that another thread opens without close-on-exec while it is spawned
/// (`EmulatorControl.spawnDetached` in Sources/NativeAuthCLI/EmulatorControl.swift).
@Suite(.serialized) struct EmulatorSpawnTests {
    @Test func theChildGetsOnlyItsStandardStreams() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("native-auth-spawn-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let opener = PipeOpener()
        opener.start()
        defer { opener.stop() }
        var inherited: [String] = []
        for _ in 0..<200 {
            let pid = try EmulatorControl.spawnDetached("/bin/sleep", named: "sleep", ["30"], log: directory + "/log")
            // posix_spawn returns once the child has called exec: its descriptors are the ones it got.
            inherited += pipesAndSockets(of: pid)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        #expect(opener.opened > 0, "the other thread opened pipes meanwhile")
        #expect(inherited.isEmpty, "the child inherited: \(inherited)")
    }

    /// The pipes and sockets `pid` holds on descriptors 3 and up (its own start opens no such thing).
    private func pipesAndSockets(of pid: Int32) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return names.compactMap { name in
            guard let descriptor = Int32(name), descriptor > 2,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)"),
                target.hasPrefix("pipe:") || target.hasPrefix("socket:")
            else { return nil }
            return "\(descriptor) → \(target)"
        }
    }
}

/// A thread that keeps opening pipes without close-on-exec (as Foundation's `Process` does on
/// Linux) and closing them a little later, until stopped.
private final class PipeOpener: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private var count = 0
    private let done = DispatchSemaphore(value: 0)

    var opened: Int { lock.withLock { count } }

    func start() {
        Thread { [self] in
            var open: [Int32] = []
            while !lock.withLock({ stopping }) {
                var ends: [Int32] = [-1, -1]
                if pipe(&ends) == 0 {
                    open += ends
                    lock.withLock { count += 1 }
                }
                while open.count > 16 { close(open.removeFirst()) }
            }
            for descriptor in open { close(descriptor) }
            done.signal()
        }.start()
    }

    func stop() {
        lock.withLock { stopping = true }
        done.wait()
    }
}
