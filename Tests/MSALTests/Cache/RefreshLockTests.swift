import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RefreshLockTests {
    @Test func theRefreshLockExcludesOtherHoldersUntilReleased() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("msal-lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token_cache.json")
        let first = FileTokenCacheStorage(url: file)
        let second = FileTokenCacheStorage(url: file)
        let release = try #require(first.tryRefreshLock("account|scope"))
        #expect(second.tryRefreshLock("account|scope") == nil, "a second holder (another process, or another open) must wait")
        let other = try #require(second.tryRefreshLock("account|other scope"), "other keys are independent")
        other()
        release()
        let again = try #require(second.tryRefreshLock("account|scope"))
        again()
        let memory = InMemoryTokenCacheStorage()
        let held = try #require(memory.tryRefreshLock("x"))
        #expect(memory.tryRefreshLock("x") == nil, "in memory, the lock excludes other tasks of the process")
        held()
        #expect(memory.tryRefreshLock("x") != nil)
    }
}
