import Foundation
import MSAL
import MSALSecretService
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The keyring item itself, and the SDK's storage over it: round trip, change stamp, files beside
/// it, and unusable secrets set aside rather than lost.
@Suite struct SecretServicePersistenceTests {
    @Test func invalidSettingsAreRefusedWithATypedError() {
        let signal = URL(fileURLWithPath: "/tmp/signal")
        for (schema, attributes) in [
            ("", ["app": "x"]), ("s", ["": "x"]), ("s", ["xdg:schema": "x"]), ("s\0t", ["app": "x"]), ("s", ["app": "x\0y"]),
        ] {
            #expect {
                _ = try MSALSecretServicePersistence(schemaName: schema, attributes: attributes, signalFile: signal)
            } throws: { error in
                let nsError = error as NSError
                return nsError.domain == MSALSecretServiceErrorDomain
                    && nsError.code == MSALSecretServiceError.Code.invalidConfiguration.rawValue
            }
        }
    }

    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func theItemStoresLoadsAndIsRemoved() throws {
        let item = try TestItem()
        #expect(try item.persistence.load() == nil)
        let document = Data(#"{"AccessToken":{"k":{"secret":"s3cr3t"}}}"#.utf8)
        try item.persistence.save(document)
        #expect(try item.persistence.load() == document)
        // Another object with the same schema and attributes finds the same item; other attributes do not.
        let same = try MSALSecretServicePersistence(
            schemaName: item.schema, attributes: ["app": item.app], signalFile: item.directory.signalFile)
        #expect(try same.load() == document)
        let other = try MSALSecretServicePersistence(
            schemaName: item.schema, attributes: ["app": "another"], signalFile: item.directory.signalFile)
        #expect(try other.load() == nil)
        #expect(try item.persistence.remove())
        #expect(try item.persistence.load() == nil)
    }

    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func updatesReplaceTheSignalFileAndOtherReadersSeeTheChange() throws {
        let item = try TestItem()
        let writer = PersistenceTokenCacheStorage(persistence: item.persistence)
        let reader = PersistenceTokenCacheStorage(persistence: item.persistence)
        let first = try #require(try reader.load(ifChangedSince: nil))
        #expect(first.document.isEmpty)
        #expect(try reader.load(ifChangedSince: first.stamp) == nil, "unchanged: no trip to the keyring")

        _ = try writer.update { $0[.accessToken]["one"] = ["secret": .string("1")] }
        let second = try #require(try reader.load(ifChangedSince: first.stamp), "a save must change the stamp")
        #expect(second.document[.accessToken]["one"]?["secret"]?.stringValue == "1")
        _ = try writer.update { $0[.accessToken]["two"] = ["secret": .string("2")] }
        let third = try #require(try reader.load(ifChangedSince: second.stamp), "two saves in a row must differ too")
        #expect(third.document[.accessToken].count == 2)

        // The secret lives in the keyring only: the files beside it carry no token, 0600 in a 0700 directory.
        var info = stat()
        #expect(stat(item.directory.signalFile.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(item.directory.signalFile.deletingLastPathComponent().path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: item.directory.signalFile.deletingLastPathComponent().path)
        #expect(files == ["token_cache.signal"], "the lock file is gone once released")
        #expect(!(try String(contentsOf: item.directory.signalFile, encoding: .utf8)).contains("secret"))
    }

    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func malformedNonUTF8AndOversizedSecretsAreSetAsideAndReported() throws {
        let valid = Data(#"{"AccessToken":{"old":{"secret":"x"}}}"#.utf8)
        for (bad, maxBytes, wording) in [
            (Data("not json {".utf8), 1 << 20, "is not a valid token cache"),
            (Data([0x7b, 0xff, 0xfe, 0x00, 0x80, 0x7d]), 1 << 20, "is not a valid token cache"),
            (valid, 16, "is larger than 16 bytes"),
        ] {
            let item = try TestItem()
            try item.persistence.save(bad)
            let storage = PersistenceTokenCacheStorage(persistence: item.persistence, maxBytes: maxBytes)
            let snapshot = try #require(try storage.load(ifChangedSince: nil))
            let problem = try #require(snapshot.problem, "an unusable secret must be reported")
            #expect(problem.message.contains(wording), "\(problem.message)")
            #expect(problem.message.contains(".corrupt"), "the message says where the secret was kept: \(problem.message)")
            #expect(snapshot.document.isEmpty)
            #expect(try item.persistence.load() == nil, "the item is free for a new document")
            // Kept byte for byte under the side schema.
            let aside = try MSALSecretServicePersistence(
                schemaName: item.schema + ".corrupt", attributes: ["app": item.app], signalFile: item.directory.signalFile)
            #expect(try aside.load() == bad)
            _ = try aside.remove()
            // The cache carries on.
            _ = try storage.update { $0[.accessToken]["new"] = ["secret": .string("n")] }
            #expect(try item.persistence.load().map { String(decoding: $0, as: UTF8.self).contains("\"new\"") } == true)
        }
    }
}
