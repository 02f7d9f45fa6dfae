import Foundation

/// A shared library made unreadable for one command: `unshare --mount` and a bind mount of
/// /dev/null over the file, in a mount namespace of the command's own: how the tests of the libraries
/// loaded at their first call (Sources/LazyLoading) see a machine without one.
package enum HiddenLibrary {
    package static let unshare = "/usr/bin/unshare"

    /// The real file behind `soname` in the multiarch library directory.
    package static func path(_ soname: String) -> String? {
        for directory in ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/usr/lib"] {
            let candidate = directory + "/" + soname
            if FileManager.default.fileExists(atPath: candidate) {
                return URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
            }
        }
        return nil
    }

    /// The arguments of `unshare` that run the command after them with `library` hidden.
    package static func arguments(hiding library: String) -> [String] {
        let namespace = getuid() == 0 ? ["--mount"] : ["--mount", "--map-root-user"]
        return namespace + ["sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"", library]
    }

    /// Whether this machine lets a test make a mount namespace and bind-mount in it.
    package static let canHide: Bool = {
        guard FileManager.default.isExecutableFile(atPath: unshare), let library = path("libsecret-1.so.0") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: unshare)
        probe.arguments = arguments(hiding: library) + ["/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()
}
