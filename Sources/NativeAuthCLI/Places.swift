import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the tool keeps its files, from the XDG base directories (docs/cli.md#files):
///
/// - configuration: `$XDG_CONFIG_HOME/native-auth/config.json` (default `~/.config`);
/// - per app (client id): `$XDG_STATE_HOME/native-auth/<client id>/` (default `~/.local/state`) for
///   the token cache and a sign-in waiting for input;
/// - the emulator's instance: `$XDG_RUNTIME_DIR/native-auth/emulator/` (without it,
///   `$TMPDIR/native-auth-<uid>/emulator/`).
///
/// A variable that is unset, empty or not an absolute path is ignored, as the XDG specification says.
struct Places: Sendable {
    let home: String
    let configHome: String
    let stateHome: String
    /// `$XDG_CACHE_HOME` (default `~/.cache`): the tool keeps nothing there, but GLib makes it when
    /// the keyring is asked for without `XDG_RUNTIME_DIR` (its fallback for the runtime directory).
    let cacheHome: String
    let runtimeRoot: String

    init(_ environment: [String: String]) {
        func absolute(_ name: String) -> String? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            return value
        }
        home = absolute("HOME") ?? NSHomeDirectory()
        configHome = absolute("XDG_CONFIG_HOME") ?? home + "/.config"
        stateHome = absolute("XDG_STATE_HOME") ?? home + "/.local/state"
        cacheHome = absolute("XDG_CACHE_HOME") ?? home + "/.cache"
        if let runtime = absolute("XDG_RUNTIME_DIR") {
            runtimeRoot = runtime + "/native-auth"
        } else {
            runtimeRoot = (absolute("TMPDIR") ?? "/tmp") + "/native-auth-\(getuid())"
        }
    }

    /// The configuration file read when `--config` is not given.
    var defaultConfigFile: String { configHome + "/native-auth/config.json" }

    /// The directory of one app's tokens and saved sign-in. A client id is a GUID; anything else
    /// that could not be a file name is hex-encoded so it cannot leave the directory.
    func appDirectory(clientId: String) -> String {
        let name = clientId.lowercased()
        let safe =
            !name.isEmpty && name.count <= 128 && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0) }
        return stateHome + "/native-auth/" + (safe ? name : "x-" + name.utf8.map { String(format: "%02x", $0) }.joined())
    }

    /// The running emulator's directory: its configuration, pid, log, token cache and saved sign-in.
    var emulatorDirectory: String { runtimeRoot + "/emulator" }
}
