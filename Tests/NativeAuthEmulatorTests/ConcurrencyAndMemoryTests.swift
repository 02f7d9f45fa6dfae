import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite(.tags(.concurrency)) struct ConcurrencyAndMemoryTests {
    typealias H = EmulatorHarness

    @Test func manyConcurrentSignInsAllSucceed() async throws {
        let h = try H()
        let results = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    guard let t0 = h.initiate(H.ada).token, let t1 = h.challenge(t0).token else { return 0 }
                    return h.passwordGrant(t1).status
                }
            }
            var statuses: [Int] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(results.count == 200 && results.allSatisfy { $0 == 200 })
    }

    @Test func expiredFlowsAreSwept() throws {
        let h = try H()
        for _ in 0..<50 { _ = h.initiate(H.ada) }
        #expect(h.router.world.withLock { $0.flows.count } == 50)
        h.advanceClock(3600)
        _ = h.initiate(H.ada)
        #expect(h.router.world.withLock { $0.flows.count } == 1)
    }

    @Test func theFlowTableIsBounded() throws {
        let h = try H { $0.maxFlows = 20 }
        for _ in 0..<60 { _ = h.initiate(H.ada) }
        #expect(h.router.world.withLock { $0.flows.count } <= 21)
    }
}
