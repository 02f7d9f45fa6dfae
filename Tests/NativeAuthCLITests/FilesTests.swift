import Foundation
import Testing

@testable import NativeAuthCLI

#if canImport(Glibc)
    import Glibc
#endif

/// XDG places, the private files, and the emulator banner.
struct FilesTests {
    @Test func xdgDirectoriesAndTheirDefaults() {
        let set = Places(["HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s", "XDG_RUNTIME_DIR": "/r"])
        #expect(set.defaultConfigFile == "/c/native-auth/config.json")
        #expect(set.appDirectory(clientId: "ABC-1") == "/s/native-auth/abc-1")
        #expect(set.emulatorDirectory == "/r/native-auth/emulator")
        let unset = Places(["HOME": "/h", "XDG_CONFIG_HOME": "relative", "XDG_STATE_HOME": "", "TMPDIR": "/t"])
        #expect(unset.defaultConfigFile == "/h/.config/native-auth/config.json", "a relative path is ignored")
        #expect(unset.appDirectory(clientId: "x") == "/h/.local/state/native-auth/x")
        #expect(unset.runtimeRoot == "/t/native-auth-\(getuid())")
    }

    @Test func aClientIdCannotLeaveTheStateDirectory() {
        let places = Places(["HOME": "/h"])
        for hostile in ["../../etc", "a/b", "..", ".", ""] {
            let path = places.appDirectory(clientId: hostile)
            #expect(path.hasPrefix("/h/.local/state/native-auth/x-") || path == "/h/.local/state/native-auth/x-", "\(hostile) → \(path)")
            #expect(!path.dropFirst("/h/.local/state/native-auth/".count).contains("/"))
        }
    }

    @Test func filesAre0600AndDirectories0700() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cli-files-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try SecureFile.makeDirectory(root + "/a/b")
        #expect(mode(root + "/a") == 0o700 && mode(root + "/a/b") == 0o700)
        try SecureFile.write(Data("secret".utf8), to: root + "/a/b/file")
        #expect(mode(root + "/a/b/file") == 0o600)
        #expect(try SecureFile.read(root + "/a/b/file") == Data("secret".utf8))
        chmod(root + "/a/b", 0o755)
        try SecureFile.makeDirectory(root + "/a/b")
        #expect(mode(root + "/a/b") == 0o700, "a wider directory is narrowed")
        #expect(try SecureFile.read(root + "/missing") == nil)
        symlink(root + "/a/b/file", root + "/link")
        #expect(throws: CLIError.self, "a link is not followed") { try SecureFile.read(root + "/link") }
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        guard getuid() == 0 else { return } // only root can make a directory owned by someone else here
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cli-owner-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        chown(root, 65534, 65534)
        #expect(throws: CLIError.self) { try SecureFile.makeDirectory(root) }
    }

    @Test func theEmulatorBannerIsReadWhenComplete() {
        let text = """
            base URL: http://127.0.0.1:40123
            authority: http://127.0.0.1:40123/emulator.onmicrosoft.com
            client id: 11111111-1111-4111-8111-111111111111  (Demo app (email + password))
            client id: 22222222-2222-4222-8222-222222222222  (Demo app (email code only))
            api: http://127.0.0.1:40123/api/todolist  scopes: api://emulator/todolist/ToDoList.Read api://emulator/todolist/ToDoList.ReadWrite
            api: http://127.0.0.1:40123/api/profile  scopes: api://emulator/profile/Profile.Read

            """
        let banner = Banner(text)
        #expect(banner?.clientId == "11111111-1111-4111-8111-111111111111")
        #expect(banner?.authority == "http://127.0.0.1:40123/emulator.onmicrosoft.com")
        #expect(banner?.apis.map(\.scopes) == [["api://emulator/todolist/ToDoList.Read"], ["api://emulator/profile/Profile.Read"]])
        #expect(Banner("base URL: http://127.0.0.1:1\n") == nil, "not yet complete")
    }
}
