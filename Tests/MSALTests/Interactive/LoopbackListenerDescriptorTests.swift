import Foundation
import TestSupport
import Testing

@testable import MSAL

/// Descriptors: every way a listener ends closes all of its sockets. Only the listeners' own
/// descriptors are counted (each one they report opening, by socket inode), so that descriptors
/// other tests open and close meanwhile can neither pass for a leak nor hide one.
@Suite(.serialized) struct LoopbackListenerDescriptorTests {
    @Test func noDescriptorIsLeftOpen() async throws {
        let opened = OpenedSockets()
        let rounds = 40
        var ports = Set<UInt16>()
        // Found without the listeners' reports, as a check on them: the listening sockets, by
        // inode, and the accepted ends of the silent connections (local port, remote port).
        var listening: [OwnSockets.Socket] = []
        var accepted: [(port: UInt16, peer: UInt16)] = []
        for round in 0..<rounds {
            let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: "s", descriptorOpened: opened.record)
            let port = UInt16(try #require(try listener.start().port))
            ports.insert(port)
            listening += OwnSockets.tcp(localPorts: [port]).filter(\.isListening)
            switch round % 4 {
            case 0:
                async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
                let silent = try LoopbackTestClient.connect(port: port)
                accepted.append((port, silent.localPort))
                _ = try await LoopbackTestClient.get("/favicon.ico", port: port)
                _ = try await LoopbackTestClient.get("/?code=C&state=s", port: port)
                #expect(try await response.code == "C")
                silent.close()
            case 1:
                _ = try? await listener.waitForResponse(timeout: 0.01)
            case 2:
                listener.cancel()
                _ = try? await listener.waitForResponse(timeout: LoopbackTestClient.patience)
            default:
                // Never waited for: dropping the listener stops its thread.
                _ = try await LoopbackTestClient.get("/?code=C&state=wrong", port: port)
            }
        }
        // A dropped listener's thread closes its sockets a moment later.
        func leftOpen() -> [OwnSockets.Socket] {
            OwnSockets.stillOpen(listening)
                + OwnSockets.tcp(localPorts: ports).filter { socket in
                    !socket.isListening && accepted.contains { $0.port == socket.port && $0.peer == socket.remotePort }
                }
        }
        var reported = opened.stillOpen()
        for _ in 0..<250 {
            guard !reported.isEmpty || !leftOpen().isEmpty else { break }
            try await Task.sleep(nanoseconds: 20_000_000)
            reported = opened.stillOpen()
        }
        // Every listener had its sockets, and none of them, nor any accepted socket, is still open…
        #expect(listening.count >= rounds)
        #expect(leftOpen() == [])
        // …and nothing any listener reported opening is: each round opens a listening socket and
        // the wake pair, and accepts three connections (a quarter of the rounds) or one (another
        // quarter), so the reports cover the listeners' sockets, wake pairs and accepted connections.
        #expect(opened.count >= rounds * 3 + rounds / 4 * 4 && opened.notSockets == 0, "\(opened.count) descriptors reported")
        #expect(reported.isEmpty, "\(reported.count) of the \(opened.count) descriptors the listeners opened are still open")
    }

    @Test func aFailedStartClosesWhatItOpened() throws {
        let squatter = try LoopbackTestClient.squat()
        defer { close(squatter.descriptor) }
        let opened = OpenedSockets()
        for _ in 0..<20 {
            let listener = try LoopbackRedirectListener(
                redirectURI: URL(string: "http://localhost:\(squatter.port)")!, expectedState: "s", descriptorOpened: opened.record)
            #expect(throws: InteractiveAuthorizationError.self) { try listener.start() }
        }
        // Each start made a socket for 127.0.0.1 and closed it before throwing.
        #expect(opened.count >= 20 && opened.notSockets == 0)
        #expect(opened.stillOpen().isEmpty)
    }
}

/// The sockets listeners report opening (`descriptorOpened`), by inode: a descriptor number is
/// reused as soon as it is closed, a socket's inode is not while the socket lives.
private final class OpenedSockets: Sendable {
    /// One entry per report; nil when the reported descriptor was not an open socket.
    private let inodes = Locked<[UInt64?]>([])

    var count: Int { inodes.withLock { $0.count } }
    var notSockets: Int { inodes.withLock { $0.filter { $0 == nil }.count } }

    /// Called on the listener's thread right after it opens `descriptor`, before it can close it.
    func record(_ descriptor: Int32) {
        let inode = OwnSockets.inode(of: descriptor)
        inodes.withLock { $0.append(inode) }
    }

    /// The reported sockets this process still holds.
    func stillOpen() -> Set<UInt64> {
        OwnSockets.stillOpen(inodes: Set(inodes.withLock { $0.compactMap { $0 } }))
    }
}
