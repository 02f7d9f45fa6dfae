import Foundation
import TestSupport
import Testing

@testable import MSAL

/// Descriptors: every way a listener ends closes all of its sockets. Counted over many rounds so
/// that descriptors other tests open meanwhile cannot pass for (or hide) a leak.
@Suite(.serialized) struct LoopbackListenerDescriptorTests {
    @Test func noDescriptorIsLeftOpen() async throws {
        // Warm up: URLSession-free, but the first thread and the accept4 lookup happen here.
        do {
            let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: "s")
            _ = try listener.start()
            listener.cancel()
            _ = try? await listener.waitForResponse(timeout: 1)
        }
        let before = LoopbackTestClient.openDescriptorCount()
        let rounds = 40
        var ports = Set<UInt16>()
        // The listeners' own sockets, by inode, and the accepted ends of the silent connections
        // (local port, remote port): a test running meanwhile may be given one of these ports.
        var listening: [OwnSockets.Socket] = []
        var accepted: [(port: UInt16, peer: UInt16)] = []
        for round in 0..<rounds {
            let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: "s")
            let port = UInt16(try #require(try listener.start().port))
            ports.insert(port)
            listening += OwnSockets.tcp(localPorts: [port]).filter(\.isListening)
            switch round % 4 {
            case 0:
                async let response = listener.waitForResponse(timeout: 10)
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
                _ = try? await listener.waitForResponse(timeout: 10)
            default:
                // Never waited for: dropping the listener stops its thread.
                _ = try await LoopbackTestClient.get("/?code=C&state=wrong", port: port)
            }
        }
        // A dropped listener's thread closes its sockets a moment later; other tests running
        // meanwhile come and go too.
        func leftOpen() -> [OwnSockets.Socket] {
            OwnSockets.stillOpen(listening)
                + OwnSockets.tcp(localPorts: ports).filter { socket in
                    !socket.isListening && accepted.contains { $0.port == socket.port && $0.peer == socket.remotePort }
                }
        }
        var after = LoopbackTestClient.openDescriptorCount()
        for _ in 0..<50 {
            guard after > before + 8 || !leftOpen().isEmpty else { break }
            try await Task.sleep(nanoseconds: 20_000_000)
            after = LoopbackTestClient.openDescriptorCount()
        }
        // Every listener had its sockets, and none of them, nor any accepted socket, is still open…
        #expect(listening.count >= rounds)
        #expect(leftOpen() == [])
        // …and, counting everything (the wake pair too): each round opens at least four
        // descriptors, so a leak of any kind adds 40 or more.
        #expect(after <= before + 8, "open descriptors: \(before) before, \(after) after \(rounds) rounds")
    }

    @Test func aFailedStartClosesWhatItOpened() throws {
        let squatter = try LoopbackTestClient.squat()
        defer { close(squatter.descriptor) }
        let before = LoopbackTestClient.openDescriptorCount()
        for _ in 0..<20 {
            let listener = try LoopbackRedirectListener(redirectURI: URL(string: "http://localhost:\(squatter.port)")!, expectedState: "s")
            #expect(throws: InteractiveAuthorizationError.self) { try listener.start() }
        }
        #expect(LoopbackTestClient.openDescriptorCount() <= before + 4)
    }
}
