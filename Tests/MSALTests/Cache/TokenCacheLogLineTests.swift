import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The line an application logs when it is made, naming the store that holds the tokens: each
/// storage describes itself (`TokenCacheStorage.logDescription`), and a path, which may name the
/// user, is personal data: masked unless the app enabled PII logging.
@Suite struct TokenCacheLogLineTests {
    /// A persistence that is never asked for its bytes here.
    final class NamedPersistence: MSALTokenCachePersistence {
        let signalFile = URL(fileURLWithPath: "/home/alice/.cache/app/token_cache.signal")
        var storeDescription: String { "the test keyring" }
        func load() throws -> Data? { nil }
        func save(_ data: Data) throws {}
        func setAside(_ data: Data) throws -> String { "nowhere" }
    }

    private func lines(_ location: MSALNativeAuthTokenCacheLocation, pii: Bool) throws -> [String] {
        let h = try Harness(pii: pii) { $0.tokenCacheLocation = location }
        return h.log.all.filter { $0.contains("Token cache: ") }
    }

    @Test func theFileIsNamedAsPersonalData() throws {
        let file = URL(fileURLWithPath: "/home/alice/.local/share/app/token_cache.json")
        #expect(try lines(.file(file), pii: false) == ["[INFO] Token cache: the file Masked(not-null)"])
        #expect(try lines(.file(file), pii: true) == ["[INFO] Token cache: the file \(file.path)"])
    }

    @Test func aPersistenceIsNamedByItsDescriptionAndItsSignalFileAsPersonalData() throws {
        let persistence = NamedPersistence()
        #expect(
            try lines(.persistence(persistence), pii: false) == ["[INFO] Token cache: the test keyring, signal file Masked(not-null)"])
        #expect(
            try lines(.persistence(persistence), pii: true) == [
                "[INFO] Token cache: the test keyring, signal file /home/alice/.cache/app/token_cache.signal"
            ])
    }

    @Test func anEntryStoreIsNamedByItsDescription() throws {
        let store = InMemoryTokenCacheEntryStore()
        for pii in [false, true] {
            #expect(try lines(.entryStore(store), pii: pii) == ["[INFO] Token cache: entries in the in-memory test store"])
        }
    }

    @Test func memoryIsNamed() throws {
        for pii in [false, true] {
            #expect(try lines(.inMemory, pii: pii) == ["[INFO] Token cache: in memory only"])
        }
    }
}
